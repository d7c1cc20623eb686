import { fail, type ToolFailure } from "@quiver/core";
import { type Context7Error, context7Failure, TRY_LATER } from "./context7-errors.js";

type Known = Omit<Context7Error, "message">;

/**
 * The texts the official Context7 MCP server (upstash/context7 `packages/mcp`) returns, without
 * `isError`, in place of results when the API fails: its own fallbacks (`parseErrorResponse` in
 * `src/lib/api.ts`) and the API's error messages it passes on (`components.responses` of
 * `docs/openapi.json`). Each starts the text, so a match at the start is an error, not documentation.
 */
const KNOWN: ReadonlyArray<readonly [RegExp, Known | ((m: RegExpExecArray) => Known)]> = [
  [/^Rate limited or quota exceeded\./, { status: 429, error: "rate_limit_exceeded" }],
  [/^Rate limit exceeded\./, { status: 429, error: "rate_limit_exceeded" }],
  [/^The library you are trying to access does not exist\./, { status: 404, error: "library_not_found" }],
  [/^Invalid API key\./, { status: 401, error: "invalid_api_key" }],
  [/^Request failed with status (\d{3})\./, (m) => ({ status: Number(m[1]) })],
  [/^Monthly spending limit .* reached/, { status: 402, error: "spending_limit_exceeded" }],
  [/^Access denied: /, { status: 403, error: "access_denied" }],
  [/^Library ".+" not found\./, { status: 404, error: "library_not_found" }],
  [/^Tag ".+" not found for library /, { status: 404, error: "tag_not_found" }],
  [/^Could not fetch documentation snippets /, { status: 404, error: "no_snippets_found" }],
  [/^No libraries found for "/, { status: 404, error: "no_libraries_found" }],
  [/^Library \S+ is too large to process\./, { status: 422, error: "library_too_large" }],
  [/^Library \S+ has no or too few snippets /, { status: 422, error: "no_code_found" }],
  [/^Library \S+ not finalized yet\./, { status: 202, error: "library_not_finalized" }],
  [/^Library \S+ has been redirected to this library: /, { status: 301, error: "library_redirected" }],
  [/^Invalid library ID format\./, { status: 400, error: "invalid_library_id" }],
  [/^An error occurred while processing your request/, { status: 500, error: "internal_error" }],
  [/^Search failed: /, { status: 503, error: "search_failed" }],
];

/** The server could not reach the API (its `catch` branches): the text carries the network error. */
const NETWORK = /^(Error searching libraries: |Error fetching library context\. Please try again later\. )/;
/** The server's text for an empty 200 body: a fault, not "no documentation". */
const EMPTY = /^Documentation not found or not finalized for this library\./;
/** Longer than any of these messages: documentation, never an error text. */
const MAX_ERROR_TEXT = 2_000;

/** A documented error body passed on as text (the server passes any 2xx body on, a 202's included). */
const errorJson = (text: string): Context7Error | undefined => {
  if (!text.startsWith("{")) return undefined;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.error !== "string") return undefined;
    const message = typeof body.message === "string" ? body.message : undefined;
    const known = message === undefined ? undefined : recognise(message);
    return { status: known?.status ?? 200, error: body.error, message };
  } catch {
    return undefined;
  }
};

const recognise = (text: string): Known | undefined => {
  for (const [pattern, known] of KNOWN) {
    const m = pattern.exec(text);
    if (m) return typeof known === "function" ? known(m) : known;
  }
  return undefined;
};

/**
 * The failure an MCP tool's text stands for, or `undefined` when it is an answer. `subject` is the
 * library id (or name) the call was about. "No libraries found" is an answer (an empty search), not
 * a failure: the caller checks for it first.
 *
 * @example
 * mcpErrorText("/vercel/next.js", "Rate limit exceeded. Please try again later.") // rate_limited
 */
export const mcpErrorText = (subject: string, text: string): ToolFailure | undefined => {
  if (text.length > MAX_ERROR_TEXT) return undefined;
  if (NETWORK.test(text)) {
    return fail.unavailable(`The Context7 MCP server could not reach Context7: ${text}`, { retryable: true });
  }
  if (EMPTY.test(text)) {
    return fail.upstream(`The Context7 MCP server got an empty answer from Context7 for ${subject}.`, {
      retryable: true,
      suggestion: TRY_LATER,
    });
  }
  const json = errorJson(text);
  if (json) return context7Failure(subject, json);
  const known = recognise(text);
  return known === undefined ? undefined : context7Failure(subject, { ...known, message: text });
};
