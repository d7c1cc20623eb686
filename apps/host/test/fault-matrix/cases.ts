import { createHash } from "node:crypto";
import type { ErrorKind, ToolResult } from "@quiver/core";
import type { Fault, FaultKind, PathPattern } from "@quiver/testing";
import { P04637_SEQUENCE, type Upstreams } from "./upstreams.js";

/** What a case's envelope must be. Every field but `status` is checked only when given. */
export interface Expectation {
  /** The statuses accepted. */
  readonly status: ReadonlyArray<ToolResult["status"]>;
  /** The error kinds accepted. */
  readonly kind?: ReadonlyArray<ErrorKind>;
  readonly retryable?: boolean;
  /**
   * Upstream requests the emulator saw on the faulted path: a number, `"policy"` (1 + the tool's
   * declared retries: a retryable failure is retried as the tool's policy says), or `"any"`.
   */
  readonly attempts?: number | "policy" | { readonly min: number };
  /** The model is told what to do next (`suggestion` or `guidance`). */
  readonly told?: boolean;
  /** The envelope says how to recover (`suggestion`), not only the plugin's fallback guidance. */
  readonly suggestion?: boolean;
  /** Further checks; each returns a problem, or undefined. */
  readonly checks?: ReadonlyArray<(r: ToolResult) => string | undefined>;
}

/** One fault the matrix injects, under an id of its own (a kind can appear with several settings). */
export interface MatrixFault {
  readonly id: string;
  /** The emulator's fault kind. */
  readonly kind: FaultKind;
  readonly fault: (up: Upstreams, row: MatrixRow) => Fault;
  /** How many requests it applies to (default: every request of the case). */
  readonly times?: number;
  /** The connection fails or no answer comes (otherwise an answer arrived: never "cannot connect"). */
  readonly noAnswer?: boolean;
  /** The call's own time limit (X-Quiver-Timeout-Ms); default {@link CALL_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** What a tool on core's HTTP client, without a fallback of its own, must answer. */
  readonly expect: Expectation;
}

/** A tool call of the matrix and the upstream request every fault is put on. */
export interface MatrixRow {
  readonly id: string;
  readonly plugin: string;
  /** Rows of one lane run one after the other; lanes run side by side (no lane's faults touch another's requests). */
  readonly lane: string;
  readonly tool: string;
  readonly input: (up: Upstreams) => unknown;
  readonly upstream: keyof Omit<Upstreams, "all" | "close">;
  readonly method: string;
  readonly path: PathPattern;
  /** The query the tool sends (without its key), for a same-origin redirect to the same request. */
  readonly query?: string;
  /** Where this row's tool answers otherwise than {@link MatrixFault.expect}: a fallback, a partial result. */
  readonly expect?: Readonly<Record<string, Expectation>>;
}

/** The time limit of every call (a bound: no case may take the tools' own 30-150 s). */
export const CALL_TIMEOUT_MS = 10_000;
/** The time limit of the calls whose upstream never answers. */
export const SHORT_TIMEOUT_MS = 800;

const success: Expectation = { status: ["success"] };
const timedOut: Expectation = { status: ["timeout"], kind: ["timeout"], told: true };
/** A timeout after the tool reported some results: a partial marked incomplete, its error the timeout. */
const incomplete: Expectation = {
  status: ["partial"],
  kind: ["timeout"],
  told: true,
  checks: [(r) => (r.metadata.incomplete === true ? undefined : "metadata.incomplete is not true")],
};
const retried = (kind: ErrorKind, status: ToolResult["status"]): Expectation => ({
  status: [status],
  kind: [kind],
  retryable: true,
  attempts: "policy",
  told: true,
});
/** An answer that cannot be used: an `upstream` error, not retried, with a suggestion. */
const unusable: Expectation = {
  status: ["error"],
  kind: ["upstream"],
  retryable: false,
  attempts: 1,
  told: true,
  suggestion: true,
};
/** A broken exchange: the request may succeed again, so it is retried; the model is told what to do. */
const broken: Expectation = {
  status: ["error", "unavailable"],
  kind: ["upstream", "unavailable"],
  retryable: true,
  attempts: "policy",
  told: true,
  suggestion: true,
};
const noRawCodes = (r: ToolResult) =>
  /UND_ERR|ERR_[A-Z_]{4,}|HPE_/.test(`${r.message} ${r.error?.message ?? ""}`)
    ? `the message shows a raw error code: ${r.message}`
    : undefined;
/** An answer that arrived (a status, a body) is not reported as a connection problem. */
export const notConnectionAdvice = (r: ToolResult) =>
  /check RAG_SERVICE_URL|cannot connect/i.test(`${r.message} ${r.suggestion ?? ""}`)
    ? "a response that arrived is reported as a connection problem"
    : undefined;

/**
 * Every fault the matrix injects, with what a plain tool (core's HTTP client, no fallback of its own)
 * must answer, from issue 13: slow but complete answers and encodings a browser decodes succeed; an
 * upstream that never answers is a `timeout`; 429 is `rate_limited` and 503 `unavailable`, both retried
 * with the tool's attempts; broken or unusable bodies are `upstream` errors with a suggestion; nothing
 * reads as an empty answer.
 */
export const MATRIX_FAULTS: ReadonlyArray<MatrixFault> = [
  { id: "delay", kind: "delay", fault: () => ({ kind: "delay", ms: 150 }), expect: success },
  {
    id: "hang",
    kind: "hang",
    noAnswer: true,
    fault: () => ({ kind: "hang" }),
    timeoutMs: SHORT_TIMEOUT_MS,
    expect: timedOut,
  },
  {
    id: "slowBody",
    kind: "slowBody",
    fault: () => ({ kind: "slowBody", chunkBytes: 16_384, intervalMs: 2 }),
    expect: success,
  },
  {
    id: "reset",
    kind: "reset",
    noAnswer: true,
    fault: () => ({ kind: "reset" }),
    expect: { ...retried("unavailable", "unavailable"), suggestion: true },
  },
  {
    id: "reset midBody",
    kind: "reset",
    noAnswer: true,
    fault: () => ({ kind: "reset", phase: "midBody" }),
    expect: broken,
  },
  {
    id: "reset afterHeaders",
    kind: "reset",
    noAnswer: true,
    fault: () => ({ kind: "reset", when: "afterHeaders" }),
    expect: broken,
  },
  {
    id: "429 Retry-After 1",
    kind: "status",
    fault: () => ({ kind: "status", status: 429, retryAfter: 1 }),
    expect: retried("rate_limited", "error"),
  },
  {
    id: "429 Retry-After date",
    kind: "status",
    fault: () => ({ kind: "status", status: 429, retryAfter: new Date(Date.now() + 2_000) }),
    expect: retried("rate_limited", "error"),
  },
  {
    id: "500",
    kind: "status",
    fault: () => ({ kind: "status", status: 500 }),
    expect: {
      ...retried("upstream", "error"),
      status: ["error", "unavailable"],
      kind: ["upstream", "unavailable"],
    },
  },
  {
    id: "503 Retry-After 1",
    kind: "status",
    fault: () => ({ kind: "status", status: 503, retryAfter: 1 }),
    expect: retried("unavailable", "unavailable"),
  },
  {
    id: "503 Retry-After date",
    kind: "status",
    fault: () => ({ kind: "status", status: 503, retryAfter: new Date(Date.now() + 2_000) }),
    expect: retried("unavailable", "unavailable"),
  },
  {
    id: "invalidJson",
    kind: "invalidJson",
    fault: () => ({ kind: "invalidJson" }),
    expect: { status: ["error"], kind: ["upstream"], told: true, suggestion: true },
  },
  { id: "htmlError", kind: "htmlError", fault: () => ({ kind: "htmlError", status: 200 }), expect: unusable },
  {
    id: "oversized",
    kind: "oversized",
    fault: () => ({ kind: "oversized", bytes: 6 * 1024 * 1024 }),
    expect: unusable,
  },
  {
    id: "wrongContentType",
    kind: "wrongContentType",
    fault: () => ({ kind: "wrongContentType", contentType: "application/octet-stream" }),
    expect: success,
  },
  ...(["gzip", "deflate", "br"] as const).map(
    (encoding): MatrixFault => ({
      id: `encoded ${encoding}`,
      kind: "encoded",
      fault: () => ({ kind: "encoded", encoding }),
      expect: success,
    }),
  ),
  { id: "bom", kind: "bom", fault: () => ({ kind: "bom" }), expect: success },
  {
    id: "redirect same origin",
    kind: "redirect",
    // Once: the redirected request (the same path and query) gets the normal answer.
    times: 1,
    fault: (_up, row) => ({
      kind: "redirect",
      status: 307,
      location: `${String(row.path)}${row.query ? `?${row.query}` : ""}`,
    }),
    expect: success,
  },
  {
    id: "redirect other host",
    kind: "redirect",
    fault: (up) => ({ kind: "redirect", status: 302, location: `${up.elsewhere.url}/moved` }),
    expect: unusable,
  },
  {
    id: "redirect link-local",
    kind: "redirect",
    fault: () => ({ kind: "redirect", status: 302, location: "http://169.254.169.254/latest/meta-data/" }),
    expect: unusable,
  },
  {
    id: "stall",
    kind: "stall",
    noAnswer: true,
    fault: () => ({ kind: "stall", afterBytes: 10 }),
    timeoutMs: SHORT_TIMEOUT_MS,
    expect: timedOut,
  },
  {
    id: "headersNever",
    kind: "headersNever",
    noAnswer: true,
    fault: () => ({ kind: "headersNever" }),
    timeoutMs: SHORT_TIMEOUT_MS,
    expect: timedOut,
  },
  {
    id: "oversizedHeaders",
    kind: "oversizedHeaders",
    fault: () => ({ kind: "oversizedHeaders", bytes: 64 * 1024 }),
    expect: { ...unusable, checks: [noRawCodes] },
  },
  { id: "bomb", kind: "bomb", fault: () => ({ kind: "bomb" }), expect: unusable },
  {
    id: "errorObject",
    kind: "errorObject",
    fault: () => ({ kind: "errorObject", message: "index not loaded (emulated)" }),
    expect: {
      status: ["error", "unavailable"],
      kind: ["upstream", "unavailable"],
      told: true,
      suggestion: true,
    },
  },
  {
    id: "emptyBody",
    kind: "emptyBody",
    fault: () => ({ kind: "emptyBody" }),
    expect: { status: ["error"], kind: ["upstream"], told: true, suggestion: true },
  },
  // A 200 whose JSON parses but is not the documented answer (a proxy's stub, a half-deployed
  // service): an upstream error, never a success or "no results" (issue 25).
  ...(
    [
      ["200 JSON null", "null"],
      ["200 JSON {}", "{}"],
      ['200 JSON "ok"', '"ok"'],
    ] as const
  ).map(
    ([id, body]): MatrixFault => ({
      id,
      kind: "invalidJson",
      fault: () => ({ kind: "invalidJson", status: 200, body }),
      expect: { status: ["error"], kind: ["upstream"], told: true },
    }),
  ),
];

/** The ids of the faults a request fails under (every fault but the slow, re-encoded or redirected-home answers). */
const FAILING = MATRIX_FAULTS.filter((f) => !f.expect.status.includes("success")).map((f) => f.id);
const HANGING = MATRIX_FAULTS.filter((f) => f.timeoutMs !== undefined).map((f) => f.id);

/** The same expectation for the given fault ids. */
const each = (ids: ReadonlyArray<string>, want: Expectation): Record<string, Expectation> =>
  Object.fromEntries(ids.map((id) => [id, want]));

const dataField =
  (what: string, ok: (data: Record<string, unknown>) => boolean) =>
  (r: ToolResult): string | undefined =>
    ok((r.data ?? {}) as Record<string, unknown>) ? undefined : `data: ${what}`;

/** Every plugin that calls an upstream, one row per upstream request it makes. */
export const MATRIX_ROWS: ReadonlyArray<MatrixRow> = [
  {
    id: "context7 resolve",
    plugin: "context7",
    lane: "context7-search",
    tool: "context7_resolve_library_id",
    input: () => ({ library_name: "react", query: "hooks" }),
    upstream: "context7",
    method: "GET",
    path: "/api/v2/libs/search",
    query: "libraryName=react&query=hooks",
  },
  {
    id: "context7 docs",
    plugin: "context7",
    lane: "context7-context",
    tool: "context7_get_library_docs",
    input: () => ({ library_id: "/vercel/next.js", query: "middleware" }),
    upstream: "context7",
    method: "GET",
    path: "/api/v2/context",
    query: "libraryId=%2Fvercel%2Fnext.js&query=middleware&type=json",
  },
  {
    id: "perplexity search",
    plugin: "perplexity",
    lane: "perplexity",
    tool: "perplexity_search_web",
    input: () => ({ query: "What is the current population of San Francisco?" }),
    upstream: "perplexity",
    method: "POST",
    path: "/search",
  },
  {
    id: "rag (HTTP service)",
    plugin: "rag",
    lane: "rag",
    tool: "rag_search",
    input: () => ({ query: "¿Cómo se evalúa la asignatura?", asignatura: "metaheuristicas" }),
    upstream: "rag",
    method: "POST",
    path: "/search",
  },
  {
    id: "testgen LLM",
    plugin: "testgen",
    lane: "testgen",
    tool: "testgen_generate_test",
    input: () => ({
      topic: "algoritmos genéticos",
      num_questions: 3,
      difficulty: "medium",
      context:
        "Los algoritmos genéticos mantienen una población de soluciones que evoluciona mediante selección, cruce y mutación. " +
        "La búsqueda local mejora una solución explorando su vecindario hasta alcanzar un óptimo local.",
    }),
    upstream: "llm",
    method: "POST",
    path: "/v1/chat/completions",
    // The LLM is optional: when it fails, rule-built questions come back as a partial result that says so.
    expect: {
      ...each(FAILING, {
        status: ["partial"],
        told: false,
        checks: [
          dataField("questions built by rules", (d) => d.generated_by === "rules"),
          (r) => (/LLM/.test(r.message) ? undefined : "the message does not say the LLM failed"),
        ],
      }),
      ...each(HANGING, {
        ...incomplete,
        checks: [...incomplete.checks!, dataField("partial questions", (d) => Array.isArray(d.questions))],
      }),
      ...each(["429 Retry-After 1", "429 Retry-After date", "503 Retry-After 1", "503 Retry-After date"], {
        status: ["partial", "success"],
        attempts: { min: 2 },
      }),
    },
  },
  {
    id: "fda search (drugsfda)",
    plugin: "fda",
    lane: "fda-drugsfda",
    tool: "fda_search_drugs",
    input: () => ({ search_criteria: { brand_name: "Ozempic" } }),
    upstream: "fda",
    method: "GET",
    path: "/drug/drugsfda.json",
    query: `search=${encodeURIComponent('(products.brand_name:"Ozempic" OR openfda.brand_name:"Ozempic")')}&limit=10`,
  },
  {
    id: "fda count (label)",
    plugin: "fda",
    lane: "fda-label",
    tool: "fda_count_drugs",
    input: () => ({ search_criteria: { indication: "diabetes" }, count_by: "route" }),
    upstream: "fda",
    method: "GET",
    path: "/drug/label.json",
    query: `search=${encodeURIComponent('indications_and_usage:"diabetes"')}&count=openfda.route.exact&limit=20`,
  },
  {
    id: "alphafold AFDB entry",
    plugin: "alphafold",
    lane: "alphafold-afdb",
    tool: "alphafold_predict_structure",
    input: () => ({ uniprot_accession: "Q7Z6M3" }),
    upstream: "afdb",
    method: "GET",
    path: "/api/prediction/Q7Z6M3",
  },
  {
    id: "alphafold structure file",
    plugin: "alphafold",
    lane: "alphafold-afdb",
    tool: "alphafold_predict_structure",
    input: () => ({ uniprot_accession: "Q7Z6M3" }),
    upstream: "afdb",
    method: "GET",
    path: "/files/AF-Q7Z6M3-F1-model_v1.pdb",
    // The structure file is optional: the confidence JSON still gives the scores, with a warning.
    expect: {
      ...each(FAILING, {
        status: ["success", "partial"],
        checks: [
          dataField("a warning about the structure file", (d) =>
            /structure file|held no residues/.test(JSON.stringify(d.warnings ?? [])),
          ),
        ],
      }),
      // The entry's figures were in before the file hung: what was found so far, marked incomplete.
      ...each(HANGING, incomplete),
    },
  },
  // The two UniParc requests of the exact-match lookup, which is optional: ESMFold folds the sequence
  // instead (TP53, 393 residues), with a warning.
  ...(
    [
      [
        "alphafold UniParc lookup",
        "/uniparc/search",
        `query=checksum%3A${createHash("md5").update(P04637_SEQUENCE).digest("hex").toUpperCase()}&format=json&size=5`,
      ],
      [
        "alphafold UniParc xrefs",
        "/uniparc/UPI00000A0002/databases",
        "format=json&dbTypes=UniProtKB%2FSwiss-Prot%2CUniProtKB%2FTrEMBL&active=true&size=100",
      ],
    ] as const
  ).map(
    ([id, path, query]): MatrixRow => ({
      id,
      plugin: "alphafold",
      lane: "alphafold-fold",
      tool: "alphafold_predict_structure",
      input: () => ({ sequence: P04637_SEQUENCE }),
      upstream: "fold",
      method: "GET",
      path,
      query,
      expect: {
        ...each(FAILING, {
          status: ["success"],
          checks: [
            dataField("folded by ESMFold", (d) => d.source === "esmfold"),
            dataField("a warning about the lookup", (d) =>
              /exact-match lookup/.test(JSON.stringify(d.warnings)),
            ),
          ],
        }),
        ...each(HANGING, timedOut),
      },
    }),
  ),
  {
    id: "alphafold ESMFold",
    plugin: "alphafold",
    lane: "alphafold-fold",
    tool: "alphafold_predict_structure",
    input: () => ({ sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAP" }),
    upstream: "fold",
    method: "POST",
    path: "/foldSequence/v1/pdb/",
    expect: {
      // ESMFold answers PDB text: a body that is not PDB is an upstream error (retryable: ESMFold is flaky).
      ...each(["invalidJson", "htmlError", "errorObject", "emptyBody"], {
        status: ["error"],
        kind: ["upstream"],
        told: true,
      }),
      wrongContentType: success,
      // The sequence's facts were in before ESMFold hung: what was found so far, marked incomplete.
      ...each(HANGING, incomplete),
    },
  },
];

/**
 * A known gap whose fix is not on main yet: the listed cases run and print PENDING instead of FAIL
 * when every problem they have matches `problem` (any problem when it is absent).
 */
export interface PendingFix {
  readonly rows: ReadonlyArray<string>;
  readonly faults: ReadonlyArray<string>;
  readonly problem?: RegExp;
  readonly why: string;
}

/**
 * Cases whose fix is not on main yet (core's HTTP client and the plugins): they run and are printed
 * as PENDING in the table, and do not fail the test. Remove an entry when a merge brings its fix (the
 * table prints FIXED for an entry whose cases already pass).
 */
export const PENDING_FIX: ReadonlyArray<PendingFix> = [];
