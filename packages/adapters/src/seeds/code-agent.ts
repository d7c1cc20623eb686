import type { ToolResult } from "@quiver/core";
import { callWith, dataRecord, errorLine, type SeedToolsOptions, type ToolCaller } from "./tool-caller.js";

/**
 * The code agent's `search_documentation` result, exactly as its `ExternalToolsMixin` returns it:
 * `{success: true, documentation}`; `{success: false, documentation: "", error, guidance, unavailable: true}`
 * when Context7 cannot be reached; `{success: false, documentation: "", error}` when the search failed.
 * Strings are `""` when empty, never null. `escalate` (and guidance saying to tell the user) is added
 * after two failures in a row in one session.
 */
export interface CodeAgentDocumentationResult {
  readonly success: boolean;
  readonly documentation: string;
  readonly error?: string;
  /** What to do instead: use embedded knowledge first, escalate to the user after two failures. */
  readonly guidance?: string;
  /** True when Context7 could not be reached (down, timed out, rate limited). */
  readonly unavailable?: boolean;
  /** True after two failures in a row in this session: stop calling it and tell the user. */
  readonly escalate?: boolean;
}

/** The code agent's `search_web` result: `{success, answer}`, or `{success: false, answer: "", error}`. */
export interface CodeAgentWebSearchResult {
  readonly success: boolean;
  /** Perplexity's written answer (or, with the Search API, the numbered sources to answer from). */
  readonly answer: string;
  readonly error?: string;
  readonly guidance?: string;
  readonly escalate?: boolean;
}

/** The error string of the agent's own Context7 wrapper when the service is unavailable. */
export const CONTEXT7_UNAVAILABLE_ERROR =
  "Context7 not available. Use your embedded knowledge for this pattern.";

/** Guidance when documentation cannot be fetched (their tests look for "embedded knowledge"). */
export const DOCUMENTATION_GUIDANCE =
  "Documentation lookup is not available right now. Use your embedded knowledge (training data) for this pattern first: " +
  "prefer the library's standard, long-documented API and say which version your knowledge reflects. " +
  "If documentation lookup fails 2 times, stop retrying and escalate to the user: tell them documentation lookup is down and ask how to proceed.";

const escalated = (what: string): string =>
  `${what} has now failed 2 times in a row in this conversation: stop calling it and escalate — ` +
  "tell the user the service is down and ask how they want to proceed. Meanwhile use your embedded knowledge.";

/** Statuses that mean the upstream could not be reached. */
const UNREACHED = new Set(["unavailable", "timeout"]);

const escalation = (r: ToolResult, what: string) =>
  r.escalate ? { guidance: escalated(what), escalate: true as const } : {};

/**
 * Maps a `context7_search_documentation` envelope to the code agent's dict. A stale answer (Context7
 * down, last known documentation) is a success.
 *
 * @example
 * const doc = toCodeAgentDocumentation(await catalog.call("context7_search_documentation", { query, library }));
 * const context = doc.success ? doc.documentation : (doc.guidance ?? "");
 */
export const toCodeAgentDocumentation = (r: ToolResult): CodeAgentDocumentationResult => {
  const d = dataRecord(r);
  if ((r.status === "success" || r.status === "partial") && typeof d.documentation === "string")
    return { success: true, documentation: d.documentation };
  if (UNREACHED.has(r.status) || r.error?.kind === "rate_limited") {
    return {
      success: false,
      documentation: "",
      error: CONTEXT7_UNAVAILABLE_ERROR,
      guidance: DOCUMENTATION_GUIDANCE,
      unavailable: true,
      ...escalation(r, "Documentation search"),
    };
  }
  if (r.error?.kind === "internal") {
    return {
      success: false,
      documentation: "",
      error: `Search failed: ${r.message}`,
      guidance: DOCUMENTATION_GUIDANCE,
      ...escalation(r, "Documentation search"),
    };
  }
  return { success: false, documentation: "", error: errorLine(r), ...escalation(r, "Documentation search") };
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

/** Perplexity's written answer followed by its numbered citations, as one string. */
const writtenText = (answer: string, citations: ReadonlyArray<string>): string =>
  citations.length === 0
    ? answer
    : `${answer}\n\nSources:\n${citations.map((c, i) => `[${i + 1}] ${c}`).join("\n")}`;

/**
 * Maps a `perplexity_search_web` envelope to the code agent's `{success, answer}` or
 * `{success: false, answer: "", error}`. With the chat API (`perplexity.api = "chat"`, what the
 * code-agent profile sets) `answer` is Perplexity's written answer with its sources; with the Search
 * API it is the numbered sources.
 *
 * @example
 * const { success, answer, error } = toCodeAgentWebSearch(await catalog.call("perplexity_search_web", { query }));
 */
export const toCodeAgentWebSearch = (r: ToolResult): CodeAgentWebSearchResult => {
  const d = dataRecord(r);
  const ok = (r.status === "success" || r.status === "partial") && Array.isArray(d.results);
  if (!ok) return { success: false, answer: "", error: errorLine(r), ...escalation(r, "Web search") };
  const citations = Array.isArray(d.citations) ? (d.citations as string[]) : [];
  const written = typeof d.answer === "string" && d.answer.trim() !== "" ? d.answer : undefined;
  return {
    success: true,
    answer: written ? writtenText(written, citations) : sourcesText(d.results as WebSource[]),
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
        { query, ...(library === undefined || library === null ? {} : { library }) },
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
