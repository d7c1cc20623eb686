import type { ToolResult } from "@quiver/core";
import { callWith, dataRecord, errorLine, type SeedToolsOptions, type ToolCaller } from "./tool-caller.js";

/**
 * The code agent's documentation result (its Context7 wrapper's shape): `success` with the
 * documentation text, or `error`; `unavailable` with `guidance` when Context7 could not be reached.
 */
export interface CodeAgentDocumentationResult {
  readonly success: boolean;
  /** Documentation snippets as Markdown with their sources; null when the call failed. */
  readonly documentation: string | null;
  /** What went wrong (message and suggestion); null on success. */
  readonly error: string | null;
  /** What to do instead when Context7 is unavailable ("answer from what you know ..."); else null. */
  readonly guidance: string | null;
  /** True when Context7 could not be reached (down, timed out): fall back to `guidance`. */
  readonly unavailable: boolean;
  /** The Context7 library id the documentation came from (Quiver's addition). */
  readonly library_id?: string;
  /** True when the documentation is a last-known answer served while Context7 is down (Quiver's addition). */
  readonly stale?: boolean;
}

/** The code agent's web search result (its Perplexity wrapper's shape). */
export interface CodeAgentWebSearchResult {
  readonly success: boolean;
  /**
   * Perplexity's written answer (chat API), or, with the Search API (Quiver's default, which writes
   * none), the sources numbered `[n]` with title, date, URL and snippet to answer from; null on failure.
   */
  readonly answer: string | null;
  /** What went wrong (message and suggestion); null on success. */
  readonly error: string | null;
  /** Cited URLs; `[n]` in `answer` is `citations[n-1]` (Quiver's addition). */
  readonly citations?: ReadonlyArray<string>;
  /** False when `answer` lists sources rather than a written answer (Quiver's addition). */
  readonly answer_included?: boolean;
}

/** Statuses that mean the upstream could not be reached. */
const UNREACHED = new Set(["unavailable", "timeout"]);

/**
 * Maps a `context7_search_documentation` envelope to the code agent's
 * `{success, documentation, error, guidance, unavailable}`. A stale answer (Context7 down, last
 * known documentation) is a success marked `stale`.
 *
 * @example
 * const doc = toCodeAgentDocumentation(await catalog.call("context7_search_documentation", { query, library }));
 * if (doc.unavailable) prompt += doc.guidance;
 */
export const toCodeAgentDocumentation = (r: ToolResult): CodeAgentDocumentationResult => {
  const d = dataRecord(r);
  const ok = (r.status === "success" || r.status === "partial") && typeof d.documentation === "string";
  const unavailable = !ok && UNREACHED.has(r.status);
  return {
    success: ok,
    documentation: ok ? (d.documentation as string) : null,
    error: ok ? null : errorLine(r),
    guidance: r.guidance ?? null,
    unavailable,
    ...(ok && typeof d.library_id === "string" ? { library_id: d.library_id } : {}),
    ...(r.metadata.stale ? { stale: true } : {}),
  };
};

interface WebSource {
  readonly title?: string;
  readonly url?: string;
  readonly date?: string;
  readonly snippet?: string;
}

/** The sources of a Search API answer as numbered text the agent can answer and cite from. */
const sourcesText = (results: ReadonlyArray<WebSource>): string =>
  [
    "Perplexity's Search API returned sources without a written answer; answer from them and cite [n]:",
    ...results.map((s, i) =>
      [
        `[${i + 1}] ${s.title ?? s.url ?? ""}${s.date ? ` (${s.date})` : ""}${s.url ? ` ${s.url}` : ""}`,
        ...(s.snippet ? [`    ${s.snippet}`] : []),
      ].join("\n"),
    ),
  ].join("\n");

/**
 * Maps a `perplexity_search_web` envelope to the code agent's `{success, answer, error}`. With the
 * chat API `answer` is Perplexity's answer; with the Search API (no written answer) it is the
 * numbered sources, and `answer_included: false` says so.
 *
 * @example
 * const { success, answer, error } = toCodeAgentWebSearch(await catalog.call("perplexity_search_web", { query }));
 */
export const toCodeAgentWebSearch = (r: ToolResult): CodeAgentWebSearchResult => {
  const d = dataRecord(r);
  const ok = (r.status === "success" || r.status === "partial") && Array.isArray(d.results);
  if (!ok) return { success: false, answer: null, error: errorLine(r) };
  const citations = Array.isArray(d.citations) ? (d.citations as string[]) : [];
  const written = typeof d.answer === "string" && d.answer.trim() !== "" ? d.answer : undefined;
  return {
    success: true,
    answer: written ?? sourcesText(d.results as WebSource[]),
    error: null,
    citations,
    answer_included: written !== undefined,
  };
};

/** Options of {@link createCodeAgentTools}. */
export interface CodeAgentToolsOptions extends SeedToolsOptions {
  /** Tool names to call (defaults: `context7_search_documentation`, `perplexity_search_web`). */
  readonly tools?: { readonly documentation?: string; readonly webSearch?: string };
}

/** Options of the code agent's `search_web(query, options?)`. */
export interface CodeAgentWebSearchOptions {
  readonly recency?: "hour" | "day" | "week" | "month" | "year";
  readonly domains?: ReadonlyArray<string>;
  readonly max_results?: number;
  readonly model?: string;
}

/** The code agent's two external tools, answering its own shapes. */
export interface CodeAgentTools {
  /** `search_documentation(query, library?)`. */
  readonly searchDocumentation: (query: string, library?: string) => Promise<CodeAgentDocumentationResult>;
  /** `search_web(query, options?)`. */
  readonly searchWeb: (
    query: string,
    options?: CodeAgentWebSearchOptions,
  ) => Promise<CodeAgentWebSearchResult>;
}

/**
 * The code agent's drop-in: `searchDocumentation` and `searchWeb` with its signatures and result
 * shapes, running Quiver's Context7 and Perplexity tools (policies, stale fallback, escalation).
 *
 * @example
 * const agentTools = createCodeAgentTools(catalog, { session: { id: conversationId } });
 * const { success, documentation } = await agentTools.searchDocumentation("middleware auth", "next.js");
 */
export const createCodeAgentTools = (
  caller: ToolCaller,
  options: CodeAgentToolsOptions = {},
): CodeAgentTools => ({
  searchDocumentation: async (query, library) =>
    toCodeAgentDocumentation(
      await callWith(
        caller,
        options.tools?.documentation ?? "context7_search_documentation",
        { query, ...(library === undefined ? {} : { library }) },
        options,
      ),
    ),
  searchWeb: async (query, searchOptions = {}) =>
    toCodeAgentWebSearch(
      await callWith(
        caller,
        options.tools?.webSearch ?? "perplexity_search_web",
        { query, ...searchOptions },
        options,
      ),
    ),
});
