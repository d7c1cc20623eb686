import type { ToolResult } from "@quiver/core";
import { callWith, type SeedToolsOptions, type ToolCaller } from "./tool-caller.js";

type Json = Record<string, unknown>;

/**
 * The co-scientist's request to an external tool: which tool, its parameters, the constraints the
 * answer must honour, and how long it may take (default 300 s).
 */
export interface ExternalToolRequest {
  /** `alphafold`, `fda_drug_database`, `private_repository` (see {@link CO_SCIENTIST_TOOLS}) or any Quiver tool name. */
  readonly tool_name: string;
  readonly parameters: Readonly<Json>;
  /** Every constraint is applied or reported in `unmet_constraints`, never dropped. */
  readonly constraints?: Readonly<Json>;
  /** The call's time limit in seconds (default 300), bounded by the tool's own maximum. */
  readonly timeout_seconds?: number;
  /** Echoed in the response. */
  readonly request_id?: string;
}

/**
 * The response statuses of the external-tools interface. From the envelope: success → SUCCESS;
 * partial (a constraint not met, a stale or incomplete answer) → PARTIAL_SUCCESS; timeout → TIMEOUT;
 * access_denied → ACCESS_DENIED; error and unavailable → FAILURE (`metadata.error_kind` says which,
 * `metadata.retry_after` when to try again). A success with a constraint the adapter found unmet
 * (e.g. `min_plddt`) is PARTIAL_SUCCESS.
 */
export type ExternalToolStatus = "SUCCESS" | "PARTIAL_SUCCESS" | "FAILURE" | "TIMEOUT" | "ACCESS_DENIED";

/** What the co-scientist receives back. */
export interface ExternalToolResponse {
  readonly request_id?: string;
  readonly tool_name: string;
  readonly status: ExternalToolStatus;
  /** The records found: drug applications, repository documents, or the structure's summary. */
  readonly results: ReadonlyArray<Json>;
  /** AlphaFold: the structure (inline text or link), per-residue pLDDT and confidence regions. */
  readonly structure_data?: Json;
  /** Repository search: each result's relevance in [0, 1], in the order of `results`. */
  readonly relevance_scores?: ReadonlyArray<number>;
  /** True only when every constraint was applied exactly. */
  readonly query_constraints_met: boolean;
  /** One line per constraint not applied (or not met), saying why. */
  readonly unmet_constraints: ReadonlyArray<string>;
  /** The envelope's message when the status is not SUCCESS. */
  readonly error_message?: string;
  readonly suggestion?: string;
  readonly metadata: Json;
}

/** What a tool mapping makes of a response's data. */
interface Shaped {
  readonly results: Json[];
  readonly structure_data?: Json;
  readonly relevance_scores?: number[];
  readonly met?: boolean;
  readonly unmet?: string[];
  readonly extra?: Json;
}

/** How one seed tool maps onto a Quiver tool. */
interface SeedTool {
  readonly tool: string;
  /** The Quiver input, the constraints it could not place (as unmet lines), or a refusal. */
  readonly input: (
    parameters: Json,
    constraints: Json,
  ) => { readonly input: Json; readonly unmet: string[] } | { readonly refused: string };
  readonly shape: (data: Json, constraints: Json) => Shaped;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => JSON.stringify(v);

/** Merges constraints into an object of criteria or filters; a constraint contradicting a parameter is a refusal. */
const merge = (
  base: Json,
  extra: Json,
  where: string,
  what = "the constraint",
): Json | { readonly refused: string } => {
  for (const [k, v] of Object.entries(extra)) {
    if (k in base && !same(base[k], v)) {
      return {
        refused: `${k}: ${what} ${show(v)} contradicts the parameter ${show(base[k])} (${where}); give one value`,
      };
    }
  }
  return { ...base, ...extra };
};

const records = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const fda: SeedTool = {
  tool: "fda_search_drugs",
  input: (parameters, constraints) => {
    const { search_criteria, max_results, ...flat } = parameters;
    const criteria = merge(
      (search_criteria as Json | undefined) ?? {},
      flat,
      "search_criteria",
      "the parameter",
    );
    if ("refused" in criteria) return criteria as { refused: string };
    const merged = merge(criteria, constraints, "search_criteria");
    if ("refused" in merged) return merged as { refused: string };
    return {
      input: { search_criteria: merged, ...(max_results === undefined ? {} : { max_results }) },
      unmet: [],
    };
  },
  shape: (d) => ({
    results: records(d.matches),
    met: d.query_constraints_met !== false,
    unmet: strings(d.unmet_constraints),
    extra: {
      total_count: d.total_count,
      fully_searched: d.fully_searched,
      refinement_suggestions: d.refinement_suggestions,
      query: d.query,
    },
  }),
};

const privateRepository: SeedTool = {
  tool: "private_repo_search",
  input: (parameters, constraints) => {
    const { query, filters, ...rest } = parameters;
    if (query !== undefined && rest.search_terms !== undefined && !same(query, rest.search_terms)) {
      return { refused: "search_terms: query and search_terms differ; give one" };
    }
    const merged = merge((filters as Json | undefined) ?? {}, constraints, "filters");
    if ("refused" in merged) return merged as { refused: string };
    return {
      input: {
        ...(query === undefined ? {} : { search_terms: query }),
        ...rest,
        ...(Object.keys(merged).length > 0 ? { filters: merged } : {}),
      },
      unmet: [],
    };
  },
  shape: (d) => {
    const results = records(d.results);
    return {
      results,
      relevance_scores: results.map((r) => (typeof r.score === "number" ? r.score : 0)),
      extra: {
        total_count: d.total_count,
        searched_collections: d.searched_collections,
        suggestions: d.suggestions,
      },
    };
  },
};

/** AlphaFold constraints the adapter applies: checked against the prediction, or passed as input. */
const ALPHAFOLD_CONSTRAINTS = ["min_plddt", "min_confidence", "source", "structure_format"] as const;

const alphafold: SeedTool = {
  tool: "alphafold_predict_structure",
  input: (parameters, constraints) => {
    const { uniprot_id, accession, ...rest } = parameters;
    const ids = [rest.uniprot_accession, uniprot_id, accession].filter((v) => v !== undefined);
    if (new Set(ids.map(show)).size > 1) {
      return { refused: `uniprot_id: ${ids.map(show).join(" and ")} name different proteins; give one` };
    }
    const id = ids[0];
    const unmet = Object.keys(constraints)
      .filter((k) => !(ALPHAFOLD_CONSTRAINTS as ReadonlyArray<string>).includes(k))
      .map(
        (k) =>
          `${k}: alphafold cannot apply "${k}" (${show(constraints[k])}); constraints it applies: ${ALPHAFOLD_CONSTRAINTS.join(", ")}`,
      );
    const format = constraints.structure_format ?? rest.structure_format;
    if (
      constraints.structure_format !== undefined &&
      rest.structure_format !== undefined &&
      !same(constraints.structure_format, rest.structure_format)
    ) {
      return { refused: `structure_format: the constraint contradicts the parameter; give one value` };
    }
    return {
      input: {
        ...rest,
        ...(id === undefined ? {} : { uniprot_accession: id }),
        ...(format === undefined ? {} : { structure_format: format }),
      },
      unmet,
    };
  },
  shape: (d, constraints) => {
    const scores = (d.confidence_scores as Json | undefined) ?? {};
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
    if (constraints.source !== undefined && constraints.source !== d.source) {
      unmet.push(`source: the structure comes from ${show(d.source)}, not ${show(constraints.source)}`);
    }
    return {
      results: [
        {
          uniprot_accession: d.uniprot_accession,
          model_id: d.model_id,
          model_version: d.model_version,
          protein: d.protein,
          sequence_length: d.sequence_length,
          source: d.source,
          lookup: d.lookup,
          mean_plddt: overall,
          plddt_band_fractions: d.plddt_band_fractions,
          warnings: d.warnings,
          links: d.links,
          citation: d.citation,
          complete: d.complete,
        },
      ],
      structure_data: {
        ...((d.structure as Json | undefined) ?? {}),
        confidence_scores: d.confidence_scores,
        regions: d.regions,
      },
      unmet,
    };
  },
};

/**
 * The co-scientist's tool names and the Quiver tool each runs. Any other name is called as a Quiver
 * tool with the parameters as input; its constraints are then reported unmet (no mapping knows where
 * they go).
 */
export const CO_SCIENTIST_TOOLS: Readonly<Record<string, string>> = {
  alphafold: "alphafold_predict_structure",
  alphafold_predict_structure: "alphafold_predict_structure",
  fda: "fda_search_drugs",
  fda_drug_database: "fda_search_drugs",
  fda_search_drugs: "fda_search_drugs",
  private_repository: "private_repo_search",
  search_repository: "private_repo_search",
  private_repo_search: "private_repo_search",
};

const MAPPINGS: Readonly<Record<string, SeedTool>> = {
  alphafold_predict_structure: alphafold,
  fda_search_drugs: fda,
  private_repo_search: privateRepository,
};

const generic = (tool: string): SeedTool => ({
  tool,
  input: (parameters, constraints) => ({
    input: parameters,
    unmet: Object.keys(constraints).map(
      (k) => `${k}: ${tool} has no constraint mapping; "${k}" (${show(constraints[k])}) was not applied`,
    ),
  }),
  shape: (d) => ({ results: Array.isArray(d) ? (d as Json[]) : [d] }),
});

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

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * One line per constraint when the call produced no data: the reason already known for it (a
 * refusal or a mapping's line starting with its name), else the failure's message.
 */
const allUnmet = (constraints: Json, why: string, known: ReadonlyArray<string> = []): string[] =>
  Object.keys(constraints).map(
    (k) => known.find((line) => line.startsWith(`${k}:`)) ?? `${k}: not applied, the call failed: ${why}`,
  );

const refusedResponse = (
  request: ExternalToolRequest,
  constraints: Json,
  why: string,
): ExternalToolResponse => {
  const unmet = allUnmet(constraints, why, [why]);
  return {
    ...(request.request_id === undefined ? {} : { request_id: request.request_id }),
    tool_name: String(request.tool_name),
    status: "FAILURE",
    results: [],
    query_constraints_met: false,
    unmet_constraints: unmet.length > 0 ? unmet : [why],
    error_message: why,
    metadata: { error_kind: "invalid_input" },
  };
};

/** Options of {@link createExternalToolExecutor}. */
export interface ExternalToolExecutorOptions extends SeedToolsOptions {
  /** More seed tool names → Quiver tool names (merged over {@link CO_SCIENTIST_TOOLS}). */
  readonly tools?: Readonly<Record<string, string>>;
}

/** Runs the co-scientist's requests. */
export interface ExternalToolExecutor {
  readonly execute: (request: ExternalToolRequest) => Promise<ExternalToolResponse>;
}

/**
 * The co-scientist's drop-in: turns an `ExternalToolRequest` into one Quiver call (constraints
 * merged into the tool's criteria or filters, `timeout_seconds` as the call's `timeoutMs`) and the
 * envelope into an `ExternalToolResponse`. A constraint is applied, checked against the answer, or
 * listed in `unmet_constraints` with `query_constraints_met: false`; never dropped.
 *
 * @example
 * const tools = createExternalToolExecutor(catalog, { session: { principal: "scientist-1" } });
 * const r = await tools.execute({ tool_name: "fda_drug_database", parameters: { active_ingredient: "semaglutide" },
 *   constraints: { mechanism: "SGLT2 inhibitor" } });
 * // r.status "PARTIAL_SUCCESS", r.query_constraints_met false, r.unmet_constraints[0] starts "mechanism: "
 */
export const createExternalToolExecutor = (
  caller: ToolCaller,
  options: ExternalToolExecutorOptions = {},
): ExternalToolExecutor => {
  const names = { ...CO_SCIENTIST_TOOLS, ...options.tools };
  return {
    execute: async (request) => {
      const constraints = isObject(request.constraints) ? request.constraints : {};
      if (typeof request.tool_name !== "string" || request.tool_name === "")
        return refusedResponse(request, constraints, "tool_name must be a tool's name");
      if (!isObject(request.parameters))
        return refusedResponse(request, constraints, "parameters must be an object");
      if (request.constraints !== undefined && !isObject(request.constraints))
        return refusedResponse(
          request,
          constraints,
          "constraints must be an object of constraint name → value",
        );
      const seconds = request.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0)
        return refusedResponse(request, constraints, "timeout_seconds must be a positive number of seconds");

      const tool = names[request.tool_name] ?? request.tool_name;
      const mapping = MAPPINGS[tool] ?? generic(tool);
      const built = mapping.input(request.parameters, constraints);
      if ("refused" in built) return refusedResponse(request, constraints, built.refused);

      const r = await callWith(caller, tool, built.input, options, { timeoutMs: seconds * 1000 });
      const metadata: Json = {
        quiver_tool: r.metadata.tool,
        quiver_status: r.status,
        execution_time_ms: r.metadata.durationMs,
        attempts: r.metadata.attempts,
        cached: r.metadata.cached,
        timeout_seconds: seconds,
        ...(r.metadata.stale ? { stale: true, stale_age_seconds: (r.metadata.staleAgeMs ?? 0) / 1000 } : {}),
        ...(r.metadata.source ? { source: r.metadata.source } : {}),
        ...(r.error ? { error_kind: r.error.kind, retryable: r.error.retryable } : {}),
        ...(r.error?.retryAfterMs === undefined
          ? {}
          : { retry_after: Math.ceil(r.error.retryAfterMs / 1000) }),
        ...(r.escalate ? { escalate: true } : {}),
      };
      const base = {
        ...(request.request_id === undefined ? {} : { request_id: request.request_id }),
        tool_name: request.tool_name,
      };
      const usable = (r.status === "success" || r.status === "partial") && r.data !== undefined;
      if (!usable) {
        const unmet = allUnmet(constraints, r.message, built.unmet);
        return {
          ...base,
          status: STATUS[r.status],
          results: [],
          query_constraints_met: Object.keys(constraints).length === 0,
          unmet_constraints: unmet,
          error_message: r.message,
          ...(r.suggestion ? { suggestion: r.suggestion } : {}),
          metadata,
        };
      }
      const shaped = mapping.shape(r.data as Json, constraints);
      const unmet = [...built.unmet, ...(shaped.unmet ?? [])];
      const met = shaped.met !== false && unmet.length === 0;
      const status = STATUS[r.status] === "SUCCESS" && !met ? "PARTIAL_SUCCESS" : STATUS[r.status];
      return {
        ...base,
        status,
        results: shaped.results,
        ...(shaped.structure_data ? { structure_data: shaped.structure_data } : {}),
        ...(shaped.relevance_scores ? { relevance_scores: shaped.relevance_scores } : {}),
        query_constraints_met: met,
        unmet_constraints: unmet,
        ...(status === "SUCCESS" ? {} : { error_message: r.message }),
        ...(r.suggestion ? { suggestion: r.suggestion } : {}),
        metadata: {
          ...metadata,
          ...Object.fromEntries(Object.entries(shaped.extra ?? {}).filter(([, v]) => v !== undefined)),
        },
      };
    },
  };
};
