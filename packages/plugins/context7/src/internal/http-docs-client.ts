import { fail, type HttpClient, type HttpResponse, ToolFailure } from "@quiver/core";
import * as Redacted from "effect/Redacted";
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
import { toLibrary } from "./to-library.js";
import { ContextResponseSchema, ErrorBodySchema, SearchResponseSchema } from "./upstream-schemas.js";

/** What the HTTP transport needs: the shared client and the plugin's settings. */
export interface HttpDocsClientOptions {
  readonly http: HttpClient;
  readonly baseUrl: string;
  readonly apiKey?: Redacted.Redacted<string> | undefined;
}

/** Context7 rejects `libraryName` and `query` longer than this. */
const MAX_PARAM = 500;
const clip = (s: string) => (s.length > MAX_PARAM ? s.slice(0, MAX_PARAM) : s);

const errorBody = (response: HttpResponse) => {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(response.body));
    return parsed.success ? parsed.data : {};
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
    return fail.unavailable(`Context7 is unavailable: ${error.message}`, {
      status,
      retryable: true,
      ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    });
  }
  if (status === 401) return invalidKey(error.message);
  if (status === 402) return spendingLimit();
  return error;
};

/**
 * The built-in transport: Context7's v2 HTTP API through the runtime's shared HTTP client.
 * `GET /v2/libs/search` resolves names; `GET /v2/context?type=json` returns snippets with source
 * links, rendered as Markdown. Any answer that is not the documented JSON (text, an error object, an
 * empty body) is a failure, and each documented error status gets its own kind (`context7-errors.ts`).
 *
 * @example
 * const client = httpDocsClient({ http: ctx.http, baseUrl: ctx.config.baseUrl, apiKey: ctx.config.apiKey });
 * const libraries = await client.searchLibraries({ libraryName: "react", query: "hooks" }, { signal: ctx.signal });
 */
export const httpDocsClient = ({ http, baseUrl, apiKey }: HttpDocsClientOptions): DocsClient => {
  const headers = { authorization: apiKey === undefined ? undefined : bearer(apiKey) };
  const get = async (
    path: string,
    query: Record<string, string>,
    signal: AbortSignal,
    acceptStatus: number[],
  ) => {
    try {
      return await http.request({
        url: `${baseUrl}${path}`,
        query,
        headers,
        signal,
        acceptStatus,
        apiKeyVar: API_KEY_VAR,
        ...(apiKey === undefined ? {} : { secrets: [apiKey] }),
      });
    } catch (error) {
      throw relabel(error);
    }
  };

  const getContext = async (
    libraryId: string,
    query: string,
    signal: AbortSignal,
    redirectedFrom?: string,
  ): Promise<DocsContext> => {
    const response = await get(
      "/v2/context",
      { libraryId, query: clip(query), type: "json" },
      signal,
      [202, 301, 404, 422],
    );
    const redirect = redirectedFrom === undefined ? {} : { redirectedFrom };
    if (response.status === 301) {
      const body = errorBody(response);
      const target = body.redirectUrl ?? response.header("location");
      if (redirectedFrom === undefined && target && LIBRARY_ID.test(target) && target !== libraryId) {
        return getContext(target, query, signal, libraryId);
      }
      throw fail.upstream(`Context7 redirected ${libraryId} to something that is not a library id.`, {
        status: 301,
        retryable: false,
      });
    }
    if (response.status !== 200)
      throw context7Failure(libraryId, { status: response.status, ...errorBody(response) });
    const body = response.body.trim();
    // An empty answer or an error object under a success status is a fault, never "no documentation".
    if (body === "") throw emptyAnswer(libraryId, response.status);
    const contentType = response.header("content-type") ?? "";
    // `type=json` was asked for: text that is not JSON (a plain "Internal Server Error", a rate-limit
    // notice) is an upstream fault, never the documentation. An HTML page gets core's own failure.
    if (!/json/i.test(contentType) && !body.startsWith("{")) {
      if (/html/i.test(contentType) || body.startsWith("<")) response.json();
      throw notJson(libraryId, response.status, contentType, body);
    }
    const failed = errorInBody(response.json());
    if (failed !== undefined) throw errorAnswer(libraryId, response.status, failed);
    // The documented answer carries `codeSnippets` and `infoSnippets` lists; JSON without either
    // (`null`, `{}`, `"ok"`) says nothing about the library, so it is a fault, never "no documentation".
    if (!isContextAnswer(response.json())) throw notContextJson(libraryId, response.status, body);
    const rendered = renderContext(response.json(ContextResponseSchema));
    if (rendered.snippets === 0) throw noDocs(libraryId, response.status);
    return { libraryId, ...rendered, ...redirect };
  };

  return {
    searchLibraries: async ({ libraryName, query }, { signal }) => {
      const response = await get(
        "/v2/libs/search",
        { libraryName: clip(libraryName), query: clip(query) },
        signal,
        [404],
      );
      if (response.status === 404) return [];
      return response.json(SearchResponseSchema).results.map(toLibrary);
    },
    getContext: ({ libraryId, query }, { signal }) => getContext(libraryId, query, signal),
  };
};

/** The message of an error object in a success answer (`{"error": "..."}` or `{"error": {"message": "..."}}`), if any. */
const errorInBody = (parsed: unknown): string | undefined => {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const error = record.error;
  if (error === undefined || error === null || error === false) return undefined;
  if ("codeSnippets" in record || "infoSnippets" in record) return undefined;
  const nested = typeof error === "object" ? (error as Record<string, unknown>).message : undefined;
  const text = [typeof error === "string" ? error : undefined, nested, record.message]
    .filter((t): t is string => typeof t === "string" && t !== "")
    .join(": ");
  return (text === "" ? "an error object" : text).slice(0, 300);
};

/** Context7 answered a success status with nothing in the body. */
const emptyAnswer = (libraryId: string, status: number) =>
  fail.upstream(`Context7 answered HTTP ${status} with an empty body for ${libraryId}.`, {
    status,
    retryable: true,
    suggestion: "That is a fault on Context7's side, not a lack of documentation; try again in a moment.",
  });

/** Context7 answered a success status with an error object instead of documentation. */
const errorAnswer = (libraryId: string, status: number, message: string) =>
  fail.upstream(
    `Context7 answered HTTP ${status} with an error instead of documentation for ${libraryId}: ${message}`,
    {
      status,
      retryable: true,
      suggestion: TRY_LATER,
    },
  );

/** `Bearer <key>` as a Redacted header value, so the key never reaches a message. */
const bearer = (key: Redacted.Redacted<string>) => Redacted.make(`Bearer ${Redacted.value(key)}`);

/** Context7 answered a success status with text when JSON was asked for. */
/** Whether parsed JSON is shaped as `GET /v2/context?type=json`'s answer (one of its two lists present). */
const isContextAnswer = (parsed: unknown): boolean => {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const record = parsed as Record<string, unknown>;
  return Array.isArray(record.codeSnippets) || Array.isArray(record.infoSnippets);
};

/** Context7 answered a success status with JSON that is not the documentation answer. */
const notContextJson = (libraryId: string, status: number, body: string) =>
  fail.upstream(
    `Context7 answered HTTP ${status} with JSON that is not documentation for ${libraryId} (no codeSnippets or infoSnippets): ${body.slice(0, 120)}`,
    { status, retryable: true, suggestion: TRY_LATER },
  );

const notJson = (libraryId: string, status: number, contentType: string, body: string) =>
  fail.upstream(
    `Context7 answered HTTP ${status} with ${contentType.split(";")[0] || "a body of no type"} instead of the JSON documentation asked for ${libraryId}: "${body.slice(0, 120)}"`,
    { status, retryable: true, suggestion: TRY_LATER },
  );
