import type { ToolResult } from "@quiver/core";
import { callWith, type SeedToolsOptions, type ToolCaller } from "./tool-caller.js";

type Json = Record<string, unknown>;

/** The four categories of the External Tools Interface. */
export const TOOL_TYPES = [
  "SPECIALIZED_MODEL",
  "SCIENTIFIC_DATABASE",
  "PRIVATE_REPOSITORY",
  "COMPUTATIONAL_SERVICE",
] as const;

/** A category of the External Tools Interface. */
export type ToolType = (typeof TOOL_TYPES)[number];

/**
 * The co-scientist's `ExternalToolRequest`: the category, the caller's name for the tool, the query
 * (`ProteinQuery`, `DatabaseQuery` or `RepositoryQuery`), constraints, and a time limit (default 300 s).
 */
export interface ExternalToolRequest {
  readonly tool_type: ToolType;
  /** "AlphaFold", "ESMFold", "FDA_Drug_Database", or a repository or collection name. */
  readonly tool_name: string;
  /** `{sequence, structure_type?}`, `{search_criteria, max_results?}` or `{search_terms, filters?}`. */
  readonly query: Readonly<Json>;
  /** Every constraint is applied or reported (`metadata.unmet_constraints`), never dropped. */
  readonly constraints?: Readonly<Json>;
  /** The call's time limit in seconds (default 300). */
  readonly timeout_seconds?: number;
}

/** The statuses of an `ExternalToolResponse`. */
export type ExternalToolStatus = "SUCCESS" | "PARTIAL_SUCCESS" | "FAILURE" | "TIMEOUT" | "ACCESS_DENIED";

/** `ProteinStructureResult`: confidence with every prediction, the structure as PDB text. */
export interface ProteinStructureResult {
  readonly confidence_scores: {
    readonly overall: number | null;
    readonly per_residue: ReadonlyArray<number>;
  };
  readonly structure_data: string;
  readonly warnings?: ReadonlyArray<string>;
}

/** `DatabaseResult`: the matches, the count of every match, whether every constraint was applied. */
export interface DatabaseResult {
  readonly matches: ReadonlyArray<Json>;
  readonly total_count: number;
  readonly query_constraints_met: boolean;
}

/** `RepositoryResult`: documents best first, each one's relevance in [0, 1]. */
export interface RepositoryResult {
  readonly documents: ReadonlyArray<Json>;
  readonly relevance_scores: ReadonlyArray<number>;
}

/** What the co-scientist receives back (`results` is null on a failure). */
export interface ExternalToolResponse {
  readonly tool_name: string;
  readonly status: ExternalToolStatus;
  readonly results: ProteinStructureResult | DatabaseResult | RepositoryResult | Json | null;
  /** On failure `error_type`, `message` and `retry_after` (seconds, when known); else how it ran. */
  readonly metadata: Json;
  readonly cached: boolean;
}

/** A mapping's Quiver input, or why the request cannot run. */
type Built = { readonly input: Json; readonly unmet: string[] } | { readonly refused: string };

/** What a mapping makes of a response's data. */
interface Shaped {
  readonly results: Json;
  readonly met?: boolean;
  readonly unmet?: string[];
  readonly complete?: boolean;
  readonly metadata?: Json;
}

/** How one named tool of the interface maps onto a Quiver tool. */
interface SeedTool {
  readonly tool: string;
  readonly description: string;
  readonly querySchema: Json;
  readonly input: (query: Json, constraints: Json, toolName: string) => Built;
  readonly shape: (data: Json, constraints: Json) => Shaped;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => JSON.stringify(v);
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** Merges constraints into criteria or filters; a constraint contradicting the query is a refusal. */
const merge = (base: Json, extra: Json, where: string): Json | { readonly refused: string } => {
  for (const [k, v] of Object.entries(extra)) {
    if (k in base && !same(base[k], v)) {
      return {
        refused: `${k}: the constraint ${show(v)} contradicts the query's ${show(base[k])} (${where}); give one value`,
      };
    }
  }
  return { ...base, ...extra };
};

const records = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const defined = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const fda: SeedTool = {
  tool: "fda_search_drugs",
  description:
    "FDA-approved drugs (openFDA Drugs@FDA and labels) by indication, active ingredient, brand or generic name, pharmacologic class, sponsor, route and original approval year.",
  querySchema: {
    type: "object",
    properties: {
      search_criteria: {
        type: "object",
        description:
          "indication, active_ingredient, brand_name, generic_name, pharmacologic_class, sponsor, route, approval_year {after, before}",
      },
      max_results: { type: "integer", minimum: 1, maximum: 100 },
    },
    required: ["search_criteria"],
  },
  input: (query, constraints) => {
    const { search_criteria, max_results, ...flat } = query;
    const criteria = merge(isObject(search_criteria) ? search_criteria : {}, flat, "search_criteria");
    if ("refused" in criteria) return criteria as { refused: string };
    const merged = merge(criteria, constraints, "search_criteria");
    if ("refused" in merged) return merged as { refused: string };
    return { input: defined({ search_criteria: merged, max_results }), unmet: [] };
  },
  shape: (d) => ({
    results: {
      matches: records(d.matches),
      total_count: typeof d.total_count === "number" ? d.total_count : records(d.matches).length,
      query_constraints_met: d.query_constraints_met !== false,
    },
    met: d.query_constraints_met !== false,
    unmet: strings(d.unmet_constraints),
    metadata: defined({
      returned: d.returned,
      total_count_exact: d.total_count_exact,
      fully_searched: d.fully_searched,
      refinement_suggestions: d.refinement_suggestions,
      query: d.query,
      data_last_updated: d.data_last_updated,
    }),
  }),
};

/** Names under PRIVATE_REPOSITORY that mean every collection the scientist can read. */
const ALL_COLLECTIONS = new Set(["private_repository", "private_repo", "all", "*", "my_repository"]);

const privateRepository: SeedTool = {
  tool: "private_repo_search",
  description:
    "The scientist's private repository: their own collections and those shared with them, ranked by relevance, with citations. tool_name names the repository or collection.",
  querySchema: {
    type: "object",
    properties: {
      search_terms: { type: "array", items: { type: "string" } },
      filters: {
        type: "object",
        description:
          "publication_date {after, before}, date_from, date_to, authors, tags, collections; an unknown filter is refused",
      },
      max_results: { type: "integer", minimum: 1, maximum: 50 },
    },
    required: ["search_terms"],
  },
  input: (query, constraints, toolName) => {
    const { search_terms, filters, max_results, ...rest } = query;
    const unknown = Object.keys(rest);
    if (unknown.length > 0)
      return { refused: `${unknown[0]}: not a field of RepositoryQuery; give search_terms and filters` };
    const merged = merge(isObject(filters) ? filters : {}, constraints, "filters");
    if ("refused" in merged) return merged as { refused: string };
    const named = ALL_COLLECTIONS.has(toolName.toLowerCase()) ? {} : { collections: [toolName] };
    const withCollection = merge(merged, named, "filters");
    const all = "refused" in withCollection ? merged : withCollection;
    return {
      input: defined({
        search_terms,
        ...(Object.keys(all).length > 0 ? { filters: all } : {}),
        max_results,
      }),
      unmet: [],
    };
  },
  shape: (d) => {
    const documents = records(d.results);
    return {
      results: {
        documents,
        relevance_scores: documents.map((r) => (typeof r.score === "number" ? r.score : 0)),
      },
      metadata: defined({
        total_count: d.total_count,
        searched_collections: d.searched_collections,
        suggestions: d.suggestions,
      }),
    };
  },
};

/** AlphaFold constraints the adapter applies: checked against the prediction, or passed as input. */
const PROTEIN_CONSTRAINTS = ["min_plddt", "min_confidence", "source", "structure_format"] as const;

const protein = (model: "AlphaFold" | "ESMFold"): SeedTool => ({
  tool: "alphafold_predict_structure",
  description:
    model === "AlphaFold"
      ? "Protein structure from AlphaFold DB (by UniProt accession or an exact sequence match; new sequences are folded by ESMFold), with overall and per-residue pLDDT."
      : "Protein structure for a new sequence (ESMFold, up to 400 residues; a known UniProt sequence answers from AlphaFold DB), with overall and per-residue pLDDT.",
  querySchema: {
    type: "object",
    properties: {
      sequence: { type: "string", description: "Amino-acid sequence, one-letter code" },
      structure_type: { type: "string", enum: ["pdb", "mmcif"] },
      uniprot_accession: { type: "string", description: "Quiver's addition: a UniProt accession instead" },
    },
  },
  input: (query, constraints) => {
    const { sequence, structure_type, uniprot_accession, uniprot_id, ...rest } = query;
    const unknown = Object.keys(rest);
    if (unknown.length > 0)
      return { refused: `${unknown[0]}: not a field of ProteinQuery; give sequence (and structure_type)` };
    const id = uniprot_accession ?? uniprot_id;
    if (sequence === undefined && id === undefined)
      return { refused: "sequence: a ProteinQuery needs the protein's sequence" };
    const format =
      constraints.structure_format ??
      (typeof structure_type === "string" && /^(pdb|mmcif)$/i.test(structure_type)
        ? structure_type.toLowerCase()
        : undefined);
    const unmet = Object.keys(constraints)
      .filter((k) => !(PROTEIN_CONSTRAINTS as ReadonlyArray<string>).includes(k))
      .map(
        (k) =>
          `${k}: ${model} cannot apply "${k}" (${show(constraints[k])}); constraints it applies: ${PROTEIN_CONSTRAINTS.join(", ")}`,
      );
    if (structure_type !== undefined && format === undefined)
      unmet.push(`structure_type: ${show(structure_type)} is not available; structures come as pdb or mmcif`);
    return {
      input: defined({
        ...(sequence !== undefined ? { sequence } : { uniprot_accession: id }),
        structure_format: format ?? "pdb",
      }),
      unmet,
    };
  },
  shape: (d, constraints) => {
    const scores = isObject(d.confidence_scores) ? d.confidence_scores : {};
    const overall = typeof scores.overall === "number" ? scores.overall : null;
    const unmet: string[] = [];
    for (const key of ["min_plddt", "min_confidence"] as const) {
      const min = constraints[key];
      if (min === undefined) continue;
      if (typeof min !== "number" || !Number.isFinite(min) || min < 0 || min > 100)
        unmet.push(`${key}: ${show(min)} is not a pLDDT (a number from 0 to 100), so it was not applied`);
      else if (overall === null) unmet.push(`${key}: the model has no overall pLDDT to compare with ${min}`);
      else if (overall < min)
        unmet.push(`${key}: the model's mean pLDDT is ${overall}, below the required ${min}`);
    }
    if (constraints.source !== undefined && constraints.source !== d.source)
      unmet.push(`source: the structure comes from ${show(d.source)}, not ${show(constraints.source)}`);
    const structure = isObject(d.structure) ? d.structure : {};
    const text = typeof structure.text === "string" ? structure.text : "";
    const warnings = strings(d.warnings);
    if (text === "" && typeof structure.url === "string")
      warnings.push(`The structure is too large to inline: download it from ${structure.url}`);
    return {
      results: {
        confidence_scores: {
          overall,
          per_residue: Array.isArray(scores.per_residue) ? scores.per_residue : [],
        },
        structure_data: text,
        ...(warnings.length > 0 ? { warnings } : {}),
      },
      unmet,
      complete: d.complete !== false,
      metadata: defined({
        model: d.source === "esmfold" ? "ESMFold" : "AlphaFold",
        source: d.source,
        lookup: d.lookup,
        uniprot_accession: d.uniprot_accession,
        model_id: d.model_id,
        sequence_length: d.sequence_length,
        structure_format: structure.format,
        structure_url: structure.url,
        regions: d.regions,
        citation: d.citation,
      }),
    };
  },
});

/** The names the interface knows in each category (case and `-`/`_`/spaces do not matter). */
const KNOWN: Readonly<Record<ToolType, Readonly<Record<string, SeedTool>>>> = {
  SPECIALIZED_MODEL: { AlphaFold: protein("AlphaFold"), ESMFold: protein("ESMFold") },
  SCIENTIFIC_DATABASE: { FDA_Drug_Database: fda },
  PRIVATE_REPOSITORY: {},
  COMPUTATIONAL_SERVICE: {},
};

const norm = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/** More spellings of the known names (the earlier mapping's names keep working). */
const ALIASES: Readonly<Record<string, readonly [ToolType, string]>> = {
  alphafold: ["SPECIALIZED_MODEL", "AlphaFold"],
  alphafoldpredictstructure: ["SPECIALIZED_MODEL", "AlphaFold"],
  esmfold: ["SPECIALIZED_MODEL", "ESMFold"],
  fda: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
  fdadrugdatabase: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
  fdasearchdrugs: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
  openfda: ["SCIENTIFIC_DATABASE", "FDA_Drug_Database"],
};

/** The tool catalogue the co-scientist's agents receive (`GET /external-tools`). */
export interface ExternalToolDescription {
  readonly tool_type: ToolType;
  readonly tool_name: string;
  readonly description: string;
  readonly query_schema: Json;
  /** The Quiver tool that answers it. */
  readonly quiver_tool: string;
}

/**
 * The interface's tools: each known model and database, and the private repository (any collection
 * name, or `private_repository` for all of them).
 *
 * @example
 * const { tools } = { tools: externalToolCatalogue() };
 */
export const externalToolCatalogue = (): ExternalToolDescription[] => [
  ...(Object.entries(KNOWN) as Array<[ToolType, Record<string, SeedTool>]>).flatMap(([type, tools]) =>
    Object.entries(tools).map(([name, t]) => ({
      tool_type: type,
      tool_name: name,
      description: t.description,
      query_schema: t.querySchema,
      quiver_tool: t.tool,
    })),
  ),
  {
    tool_type: "PRIVATE_REPOSITORY",
    tool_name: "private_repository",
    description: `${privateRepository.description} Use "private_repository" for every collection you can read, or a collection's name (owner/name for a shared one).`,
    query_schema: privateRepository.querySchema,
    quiver_tool: privateRepository.tool,
  },
];

/** The `error_type` of each failure kind. */
const ERROR_TYPE: Readonly<Record<string, string>> = {
  invalid_input: "INVALID_INPUT",
  unavailable: "SERVICE_UNAVAILABLE",
  timeout: "TIMEOUT",
  access_denied: "ACCESS_DENIED",
  rate_limited: "RATE_LIMITED",
  upstream: "UPSTREAM_ERROR",
  out_of_domain: "OUT_OF_DOMAIN",
  constraint_violation: "CONSTRAINT_VIOLATION",
  internal: "INTERNAL_ERROR",
};

const STATUS: Readonly<Record<ToolResult["status"], ExternalToolStatus>> = {
  success: "SUCCESS",
  partial: "PARTIAL_SUCCESS",
  timeout: "TIMEOUT",
  access_denied: "ACCESS_DENIED",
  error: "FAILURE",
  unavailable: "FAILURE",
};

/** The default time limit of a request, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

/** A response that ran no tool: FAILURE, `results: null`, the reason and how to correct it. */
const failure = (
  toolName: unknown,
  errorType: string,
  message: string,
  extra: Json = {},
): ExternalToolResponse => ({
  tool_name: typeof toolName === "string" ? toolName : "",
  status: "FAILURE",
  results: null,
  metadata: { error_type: errorType, message, ...extra },
  cached: false,
});

/** Options of {@link createExternalToolExecutor}. */
export interface ExternalToolExecutorOptions extends SeedToolsOptions {}

/** Runs the co-scientist's requests. */
export interface ExternalToolExecutor {
  readonly execute: (request: ExternalToolRequest) => Promise<ExternalToolResponse>;
}

/** Finds the mapping for a request: its category and name, or why there is none. */
const resolveTool = (
  caller: ToolCaller & { readonly has?: (name: string) => boolean },
  type: unknown,
  name: string,
): { readonly tool: SeedTool; readonly type: ToolType } | { readonly refused: ExternalToolResponse } => {
  const alias = ALIASES[norm(name)];
  const toolType = (type === undefined && alias ? alias[0] : type) as ToolType;
  if (!TOOL_TYPES.includes(toolType)) {
    return {
      refused: failure(name, "INVALID_REQUEST", `tool_type must be one of ${TOOL_TYPES.join(", ")}.`, {
        suggestion: `Set tool_type to one of ${TOOL_TYPES.join(", ")}.`,
      }),
    };
  }
  if (toolType === "PRIVATE_REPOSITORY") return { tool: privateRepository, type: toolType };
  const known = KNOWN[toolType];
  const hit =
    Object.entries(known).find(([k]) => norm(k) === norm(name)) ??
    (alias && alias[0] === toolType ? [alias[1], known[alias[1]]!] : undefined);
  if (hit) return { tool: hit[1] as SeedTool, type: toolType };
  // A computational service (or any category) may name a Quiver tool directly.
  if (caller.has?.(name)) {
    return {
      tool: {
        tool: name,
        description: "",
        querySchema: {},
        input: (query, constraints) => ({
          input: query,
          unmet: Object.keys(constraints).map(
            (k) =>
              `${k}: ${name} has no constraint mapping; "${k}" (${show(constraints[k])}) was not applied`,
          ),
        }),
        shape: (d) => ({ results: isObject(d) ? d : { value: d } }),
      },
      type: toolType,
    };
  }
  const names = Object.keys(known);
  return {
    refused: failure(
      name,
      "UNKNOWN_TOOL",
      names.length > 0
        ? `No ${toolType} named "${name}". Known names: ${names.join(", ")}.`
        : `No ${toolType} named "${name}": none is configured. Known tools: ${externalToolCatalogue()
            .map((t) => `${t.tool_type}/${t.tool_name}`)
            .join(", ")}.`,
      { known_tools: names },
    ),
  };
};

/**
 * The co-scientist's drop-in: turns an `ExternalToolRequest` into one Quiver call (`tool_type` picks
 * the category, constraints merged into the criteria or filters, `timeout_seconds` as the call's
 * limit) and the envelope into an `ExternalToolResponse`. A constraint is applied, checked against
 * the answer, or listed in `metadata.unmet_constraints` (then PARTIAL_SUCCESS); never dropped. A
 * failure answers `results: null` with `metadata.error_type`, `message` and `retry_after`; a timeout
 * keeps what was found, marked `metadata.incomplete`.
 *
 * @example
 * const tools = createExternalToolExecutor(catalog, { session: { principal: "scientist-1" } });
 * const r = await tools.execute({ tool_type: "SCIENTIFIC_DATABASE", tool_name: "FDA_Drug_Database",
 *   query: { search_criteria: { active_ingredient: "semaglutide" } }, constraints: { approval_year: { after: 2010 } } });
 */
export const createExternalToolExecutor = (
  caller: ToolCaller & { readonly has?: (name: string) => boolean },
  options: ExternalToolExecutorOptions = {},
): ExternalToolExecutor => ({
  execute: async (request) => {
    const req = (isObject(request) ? request : {}) as Partial<ExternalToolRequest> & { parameters?: unknown };
    const name = req.tool_name;
    if (typeof name !== "string" || name.trim() === "")
      return failure(name, "INVALID_REQUEST", "tool_name must be the tool's name.", {
        suggestion: `Name one of: ${externalToolCatalogue()
          .map((t) => t.tool_name)
          .join(", ")}, or a repository or collection.`,
      });
    // `parameters` was the earlier mapping's name for the query.
    const query = req.query ?? req.parameters;
    if (!isObject(query))
      return failure(
        name,
        "INVALID_REQUEST",
        "query must be an object (a ProteinQuery, DatabaseQuery or RepositoryQuery).",
        {
          suggestion:
            'e.g. {"sequence": "MKT..."}, {"search_criteria": {"active_ingredient": "semaglutide"}} or {"search_terms": ["GLP-1"]}',
        },
      );
    if (req.constraints !== undefined && req.constraints !== null && !isObject(req.constraints))
      return failure(name, "INVALID_REQUEST", "constraints must be an object of constraint name → value.");
    const constraints = isObject(req.constraints) ? req.constraints : {};
    const seconds = req.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0)
      return failure(name, "INVALID_REQUEST", "timeout_seconds must be a positive number of seconds.", {
        suggestion: `Leave it out for ${DEFAULT_TIMEOUT_SECONDS}.`,
      });

    const found = resolveTool(caller, req.tool_type, name);
    if ("refused" in found) return found.refused;
    const mapping = found.tool;
    const built = mapping.input(query, constraints, name);
    if ("refused" in built)
      return failure(name, "INVALID_INPUT", built.refused, {
        suggestion: "Correct the field named and send the request again.",
      });

    if (caller.has && !caller.has(mapping.tool))
      return failure(
        name,
        "SERVICE_UNAVAILABLE",
        `${name} is not served by this host: its Quiver tool ${mapping.tool} is not installed or not enabled.`,
        {
          suggestion: "Try an alternative tool from GET /external-tools.",
        },
      );
    const r = await callWith(caller, mapping.tool, built.input, options, { timeoutMs: seconds * 1000 });
    const ran = defined({
      quiver_tool: r.metadata.tool,
      execution_time_ms: r.metadata.durationMs,
      timeout_seconds: seconds,
      ...(r.metadata.stale ? { stale: true, stale_age_seconds: (r.metadata.staleAgeMs ?? 0) / 1000 } : {}),
      data_source: r.metadata.source,
      escalate: r.escalate ? true : undefined,
    });
    const hasData = r.data !== undefined && r.data !== null && isObject(r.data);
    if (!hasData || !(r.status === "success" || r.status === "partial" || r.status === "timeout")) {
      const kind = r.error?.kind ?? "internal";
      return {
        tool_name: name,
        status: STATUS[r.status],
        results: null,
        metadata: defined({
          error_type: ERROR_TYPE[kind] ?? "INTERNAL_ERROR",
          message: r.message,
          retry_after:
            r.error?.retryAfterMs === undefined ? undefined : Math.ceil(r.error.retryAfterMs / 1000),
          suggestion: r.suggestion,
          guidance: r.guidance,
          unmet_constraints:
            Object.keys(constraints).length > 0
              ? Object.keys(constraints).map(
                  (k) =>
                    built.unmet.find((line) => line.startsWith(`${k}:`)) ??
                    `${k}: not applied, the call failed`,
                )
              : undefined,
          ...ran,
        }),
        cached: r.metadata.cached,
      };
    }
    const shaped = mapping.shape(r.data as Json, constraints);
    const unmet = [...built.unmet, ...(shaped.unmet ?? [])];
    const met = shaped.met !== false && unmet.length === 0;
    const incomplete = r.status === "timeout" || shaped.complete === false;
    const status: ExternalToolStatus =
      r.status === "timeout"
        ? "TIMEOUT"
        : r.status === "partial" || !met || incomplete
          ? "PARTIAL_SUCCESS"
          : "SUCCESS";
    return {
      tool_name: name,
      status,
      results: shaped.results,
      metadata: defined({
        ...ran,
        ...shaped.metadata,
        query_constraints_met: met,
        unmet_constraints: unmet,
        ...(incomplete ? { incomplete: true } : {}),
        message: status === "SUCCESS" ? undefined : r.message,
        suggestion: r.suggestion,
      }),
      cached: r.metadata.cached,
    };
  },
});
