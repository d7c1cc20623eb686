import { fail, type HttpClient, type HttpResponse, ToolFailure } from "@quiver/core";
import type { Context7Config } from "../config.js";
import {
  API_KEY_VAR,
  context7Failure,
  invalidKey,
  noDocs,
  spendingLimit,
  TRY_LATER,
} from "./context7-errors.js";
import type { DocsClient, DocsContext } from "./docs-client.js";
import { LIBRARY_ID } from "./match-library.js";
import { renderContext } from "./render-context.js";
import {
  ContextResponseSchema,
  ErrorBodySchema,
  MAX_PARAM,
  SearchResponseSchema,
} from "./upstream-schemas.js";

/** A parameter cut to the length Context7 accepts (the library search uses the whole question). */
const clip = (s: string) => s.slice(0, MAX_PARAM);

/** Context7's error body (`{ error, message, redirectUrl? }`), or nothing when the body is not one. */
const errorBody = (response: HttpResponse) => {
  try {
    return ErrorBodySchema.parse(JSON.parse(response.body));
  } catch {
    return {};
  }
};

/**
 * Re-labels HTTP failures the way this plugin reports them: a 5xx (after the runtime's retries) is
 * Context7 being `unavailable`, with core's suggestion; 401/402 get Context7-specific fixes. Secrets are already redacted.
 */
export const relabel = (error: unknown): unknown => {
  if (!ToolFailure.isInstance(error)) return error;
  const { status } = error;
  if ((error.kind === "upstream" || error.kind === "unavailable") && status !== undefined && status >= 500) {
    const message = `Context7 is unavailable: ${error.message}`;
    return ToolFailure.make({ ...error, kind: "unavailable", message, retryable: true });
  }
  if (status === 401) return invalidKey(error.message);
  if (status === 402) return spendingLimit();
  return error;
};

/** A success status whose body is not documentation: a retryable fault, never "no documentation". */
const fault = (status: number, what: string) =>
  fail.upstream(`Context7 answered HTTP ${status} with ${what}`, {
    status,
    retryable: true,
    suggestion: TRY_LATER,
  });

/** The message of an error object in a success answer (`{"error": "..."}` or `{"error": {"message": "..."}}`), if any. */
const errorIn = (record: Record<string, unknown>): string | undefined => {
  const { error } = record;
  if (error === undefined || error === null || error === false) return undefined;
  const text = [error, (error as { message?: unknown }).message, record.message]
    .filter((t): t is string => typeof t === "string" && t !== "")
    .join(": ");
  return (text === "" ? "an error object" : text).slice(0, 300);
};

/**
 * The documentation in a 200 answer to `GET /v2/context?type=json`. Any other body (empty, text that
 * is not JSON, an error object, JSON without `codeSnippets` or `infoSnippets`) is an upstream fault,
 * never the documentation nor "no documentation".
 */
const documentation = (response: HttpResponse, libraryId: string) => {
  const { status } = response;
  const body = response.body.trim();
  if (body === "") throw fault(status, `an empty body for ${libraryId}.`);
  const contentType = response.header("content-type") ?? "";
  // A plain "Internal Server Error", a rate-limit notice; an HTML page gets core's own failure.
  if (!/json/i.test(contentType) && !body.startsWith("{")) {
    if (/html/i.test(contentType) || body.startsWith("<")) response.json();
    const type = contentType.split(";")[0] || "a body of no type";
    throw fault(
      status,
      `${type} instead of the JSON documentation asked for ${libraryId}: "${body.slice(0, 120)}"`,
    );
  }
  const parsed = response.json();
  const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (!Array.isArray(record.codeSnippets) && !Array.isArray(record.infoSnippets)) {
    const failed = errorIn(record);
    throw fault(
      status,
      failed !== undefined
        ? `an error instead of documentation for ${libraryId}: ${failed}`
        : `JSON that is not documentation for ${libraryId} (no codeSnippets or infoSnippets): ${body.slice(0, 120)}`,
    );
  }
  return response.json(ContextResponseSchema);
};

/**
 * The built-in transport: Context7's v2 HTTP API through the runtime's shared HTTP client.
 * `GET /v2/libs/search` resolves names; `GET /v2/context?type=json` returns snippets with source
 * links, rendered as Markdown. Any answer that is not the documented JSON (text, an error object, an
 * empty body) is a failure, and each documented error status gets its own kind (`context7-errors.ts`).
 *
 * @example
 * const client = httpDocsClient(ctx.http, ctx.config);
 * const libraries = await client.searchLibraries({ libraryName: "react", query: "hooks" }, { signal: ctx.signal });
 */
export const httpDocsClient = (
  http: HttpClient,
  { baseUrl, apiKey: bearer }: Pick<Context7Config, "baseUrl" | "apiKey">,
): DocsClient => {
  const get = (url: string, query: Record<string, string>, signal: AbortSignal, acceptStatus: number[]) =>
    http
      .request({ baseUrl, url, bearer, query, signal, acceptStatus, apiKeyVar: API_KEY_VAR })
      .catch((error) => {
        throw relabel(error);
      });

  const getContext = async (
    libraryId: string,
    query: string,
    signal: AbortSignal,
    redirectedFrom?: string,
  ): Promise<DocsContext> => {
    const params = { libraryId, query: clip(query), type: "json" };
    const response = await get("/v2/context", params, signal, [202, 301, 404, 422]);
    const { status } = response;
    if (status === 301) {
      const target = errorBody(response).redirectUrl ?? response.header("location");
      if (redirectedFrom === undefined && target && LIBRARY_ID.test(target) && target !== libraryId)
        return getContext(target, query, signal, libraryId);
      throw fail.upstream(`Context7 redirected ${libraryId} to something that is not a library id.`, {
        status,
        retryable: false,
      });
    }
    if (status !== 200) throw context7Failure(libraryId, { status, ...errorBody(response) });
    const rendered = renderContext(documentation(response, libraryId));
    if (rendered.snippets === 0) throw noDocs(libraryId, status);
    return { libraryId, ...rendered, ...(redirectedFrom === undefined ? {} : { redirectedFrom }) };
  };

  return {
    searchLibraries: async ({ libraryName, query }, { signal }) => {
      const params = { libraryName: clip(libraryName), query: clip(query) };
      const response = await get("/v2/libs/search", params, signal, [404]);
      return response.status === 404 ? [] : response.json(SearchResponseSchema).results;
    },
    getContext: ({ libraryId, query }, { signal }) => getContext(libraryId, query, signal),
  };
};
