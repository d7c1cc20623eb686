import { fail, type HttpClient, type HttpResponse, ToolFailure } from "@quiver/core";
import type { z } from "zod";
import type { Context7Config } from "../config.js";
import type { DocsClient, DocsContext } from "./docs-client.js";
import { LIBRARY_ID } from "./match-library.js";
import { renderContext } from "./render-context.js";
import {
  ContextResponseSchema,
  ErrorBodySchema,
  MAX_PARAM,
  SearchResponseSchema,
} from "./upstream-schemas.js";

/** The setting that holds the Context7 key, named in fixes. */
const API_KEY_VAR = "CONTEXT7_API_KEY";

/** A fault on Context7's side (never "no documentation"): retryable, and the fix says so. */
const TRY_LATER = {
  retryable: true,
  suggestion: "That is a fault on Context7's side, not a lack of documentation; try again in a moment.",
} as const;

/** A parameter cut to the length Context7 accepts (the library search uses the whole question). */
const clip = (s: string) => s.slice(0, MAX_PARAM);

/** Context7's error body (`{ error, message, redirectUrl? }`), or nothing when the body is not one. */
const errorBody = (response: HttpResponse): z.output<typeof ErrorBodySchema> => {
  try {
    return ErrorBodySchema.parse(JSON.parse(response.body));
  } catch {
    return {};
  }
};

/**
 * Throws an HTTP failure re-labelled the way this plugin reports it: a 5xx (after the runtime's
 * retries) is Context7 being `unavailable`, with core's suggestion; 401/402 get Context7-specific
 * fixes. Secrets are already redacted.
 */
const throwRelabelled = (error: unknown): never => {
  if (!ToolFailure.isInstance(error)) throw error;
  const { status } = error;
  if ((error.kind === "upstream" || error.kind === "unavailable") && status !== undefined && status >= 500) {
    const message = `Context7 is unavailable: ${error.message}`;
    throw ToolFailure.make({ ...error, kind: "unavailable", message, retryable: true });
  }
  if (status === 401)
    throw fail.accessDenied(error.message, {
      status,
      suggestion: `Check ${API_KEY_VAR}: Context7 keys start with "ctx7sk" (create one at https://context7.com/dashboard), or unset it to use the anonymous tier with lower limits.`,
    });
  if (status === 402)
    throw fail.accessDenied(
      "Context7 refused the request: the account's spending limit is reached (HTTP 402).",
      { status, suggestion: "Raise the spending limit in the Context7 dashboard, or use another key." },
    );
  throw error;
};

/** Context7 knows the library but has nothing for this query (`status`: what Context7 answered). */
const noDocs = (libraryId: string, status: number) =>
  fail.outOfDomain(`Context7 has no documentation in ${libraryId} that matches this query.`, {
    status,
    suggestion:
      "Ask about a concrete API, function or concept of the library, with the names the library uses.",
  });

/**
 * The failure for a Context7 error answer the client lets through (202, 404, 422; the other statuses
 * are core's failures, relabelled): the body's documented `error` code decides (`components.responses`
 * of upstash/context7 `docs/openapi.json`), else the status. 202 and 422 are not retried: waiting
 * seconds changes nothing.
 */
const context7Failure = (
  libraryId: string,
  status: number,
  { error, message }: z.output<typeof ErrorBodySchema>,
) => {
  const detail = message ? `: ${message}` : ".";
  // A 202 means one thing (the library is not finalized yet), with or without its body.
  switch (error ?? (status === 202 ? "library_not_finalized" : "")) {
    case "library_not_finalized":
      return fail.upstream(`Context7 is still indexing ${libraryId}; its documentation is not ready yet.`, {
        status,
        retryable: false,
        suggestion: "Try again in a few minutes, or use another version or library.",
      });
    case "no_snippets_found":
      return noDocs(libraryId, status);
    case "no_code_found":
      return fail.outOfDomain(
        `Context7 has indexed ${libraryId} but found no or too few code snippets in its documentation (HTTP ${status}).`,
        {
          status,
          retryable: false,
          suggestion:
            "Use another Context7 library for the same package (context7_resolve_library_id lists them), or answer from the library's official documentation.",
        },
      );
    case "library_too_large":
      return fail.constraintViolation(
        `Context7 cannot serve ${libraryId}: the library is too large for it to process (HTTP ${status}).`,
        {
          status,
          retryable: false,
          suggestion:
            "Pin a version (/owner/repo/<version>), or use a smaller Context7 library that covers the part you need (context7_resolve_library_id lists them).",
        },
      );
  }
  if (status === 404 || error === "library_not_found" || error === "tag_not_found") {
    const what = error === "tag_not_found" ? "that version of" : "the library";
    return fail.invalidInput(`Context7 does not know ${what} ${libraryId}${detail}`, { status: 404 });
  }
  return fail.upstream(`Context7 failed for ${libraryId} (HTTP ${status})${detail}`, {
    status,
    ...TRY_LATER,
  });
};

/**
 * The documentation in a 200 answer to `GET /v2/context?type=json`. Any other body (empty, text that
 * is not JSON, an error object, JSON without `codeSnippets` or `infoSnippets`) is an upstream fault,
 * retryable, never the documentation nor "no documentation".
 */
const documentation = (response: HttpResponse, libraryId: string) => {
  const { status } = response;
  const body = response.body.trim();
  const fault = (what: string) =>
    fail.upstream(`Context7 answered HTTP ${status} with ${what}`, { status, ...TRY_LATER });
  if (body === "") throw fault(`an empty body for ${libraryId}.`);
  const contentType = response.header("content-type") ?? "";
  // A plain "Internal Server Error", a rate-limit notice; an HTML page gets core's own failure.
  if (!/json/i.test(contentType) && !body.startsWith("{")) {
    if (/html/i.test(contentType) || body.startsWith("<")) response.json();
    const type = contentType.split(";")[0] || "a body of no type";
    throw fault(`${type} instead of the JSON documentation asked for ${libraryId}: "${body.slice(0, 120)}"`);
  }
  const record = (response.json() ?? {}) as Record<string, unknown>;
  if (Array.isArray(record.codeSnippets) || Array.isArray(record.infoSnippets))
    return response.json(ContextResponseSchema);
  // An error object: `{"error": "..."}` or `{"error": {"message": "..."}}`, maybe with a `message`.
  const { error } = record;
  if (error === undefined || error === null || error === false)
    throw fault(
      `JSON that is not documentation for ${libraryId} (no codeSnippets or infoSnippets): ${body.slice(0, 120)}`,
    );
  const said = [error, (error as { message?: unknown }).message, record.message]
    .filter((t) => typeof t === "string" && t !== "")
    .join(": ");
  throw fault(
    `an error instead of documentation for ${libraryId}: ${(said || "an error object").slice(0, 300)}`,
  );
};

/**
 * The built-in transport: Context7's v2 HTTP API through the runtime's shared HTTP client.
 * `GET /v2/libs/search` resolves names; `GET /v2/context?type=json` returns snippets with source
 * links, rendered as Markdown. Any answer that is not the documented JSON (text, an error object, an
 * empty body) is a failure, and each documented error status gets its own kind.
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
      .catch(throwRelabelled);

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
    if (status !== 200) throw context7Failure(libraryId, status, errorBody(response));
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
