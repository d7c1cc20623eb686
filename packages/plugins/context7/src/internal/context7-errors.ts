import { fail, type ToolFailure } from "@quiver/core";

/** The setting that holds the Context7 key, named in fixes. */
export const API_KEY_VAR = "CONTEXT7_API_KEY";

/**
 * One Context7 API error: the HTTP status and the documented `error` code of its body
 * (`components.responses` of upstash/context7 `docs/openapi.json`), with the body's `message`.
 */
export interface Context7Error {
  readonly status: number;
  readonly error?: string | undefined;
  readonly message?: string | undefined;
}

const detail = (e: Context7Error) => (e.message ? `: ${e.message}` : ".");
/** The fix for a fault on Context7's side (never "no documentation"). */
export const TRY_LATER =
  "That is a fault on Context7's side, not a lack of documentation; try again in a moment.";

/** 401: the key is wrong. */
export const invalidKey = (message: string, status = 401) =>
  fail.accessDenied(message, {
    status,
    suggestion: `Check ${API_KEY_VAR}: Context7 keys start with "ctx7sk" (create one at https://context7.com/dashboard), or unset it to use the anonymous tier with lower limits.`,
  });

/** 402: the teamspace's monthly spending limit is reached. */
export const spendingLimit = (message?: string) =>
  fail.accessDenied(
    `Context7 refused the request: the account's spending limit is reached (HTTP 402)${message ? `: ${message}` : "."}`,
    {
      status: 402,
      suggestion: "Raise the spending limit in the Context7 dashboard, or use another key.",
    },
  );

/** Context7 knows the library but has nothing for this query (`status`: what Context7 answered). */
export const noDocs = (libraryId: string, status = 404) =>
  fail.outOfDomain(`Context7 has no documentation in ${libraryId} that matches this query.`, {
    status,
    suggestion:
      "Ask about a concrete API, function or concept of the library, with the names the library uses.",
  });

/**
 * The failure for a documented Context7 error about `libraryId` (the code decides; the status
 * when the code is missing or unknown). 202 and 422 are not retried: waiting seconds changes nothing.
 *
 * @example
 * throw context7Failure("/owner/repo", { status: 422, error: "library_too_large" });
 */
export const context7Failure = (libraryId: string, e: Context7Error): ToolFailure => {
  const { status } = e;
  // A 202 means one thing (the library is not finalized yet), with or without its body.
  switch (e.error ?? (status === 202 ? "library_not_finalized" : "")) {
    case "library_not_finalized":
      return fail.upstream(`Context7 is still indexing ${libraryId}; its documentation is not ready yet.`, {
        status,
        retryable: false,
        suggestion: "Try again in a few minutes, or use another version or library.",
      });
    case "library_redirected": {
      const target = /redirected to this library: (\S+?)\.?$/.exec(e.message ?? "")?.[1];
      return fail.invalidInput(
        `Context7 has moved ${libraryId}${target ? ` to ${target}` : ""}${detail(e)}`,
        {
          status,
          suggestion: target
            ? `Call again with the library id ${target}.`
            : "Resolve the library name again.",
        },
      );
    }
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
    case "library_not_found":
    case "tag_not_found": {
      const what = e.error === "tag_not_found" ? "that version of" : "the library";
      return fail.invalidInput(`Context7 does not know ${what} ${libraryId}${detail(e)}`, { status: 404 });
    }
    case "invalid_library_id":
    case "validation_error":
      return fail.invalidInput(`Context7 refused the request for ${libraryId}${detail(e)}`, {
        status,
        suggestion: "A Context7 library id looks like /owner/repo or /owner/repo/<version>.",
      });
    case "invalid_api_key":
      return invalidKey(`Context7 rejected the API key${detail(e)}`, status);
    case "spending_limit_exceeded":
      return spendingLimit(e.message);
    case "access_denied":
    case "forbidden":
      return fail.accessDenied(`Context7 refused access to ${libraryId}${detail(e)}`, {
        status,
        suggestion: "Use a library your Context7 plan or teamspace allows, or another key.",
      });
    case "rate_limit_exceeded":
      return fail.rateLimited(`Context7 rate limit reached${detail(e)}`, { status, retryable: true });
  }
  if (status === 404)
    return fail.invalidInput(`Context7 does not know the library ${libraryId}${detail(e)}`, { status });
  if (status === 401) return invalidKey(`Context7 rejected the API key${detail(e)}`);
  if (status === 402) return spendingLimit(e.message);
  if (status === 429)
    return fail.rateLimited(`Context7 rate limit reached${detail(e)}`, { status, retryable: true });
  if (status >= 500)
    return fail.unavailable(`Context7 is unavailable (HTTP ${status})${detail(e)}`, {
      status,
      retryable: true,
    });
  return fail.upstream(`Context7 failed for ${libraryId} (HTTP ${status})${detail(e)}`, {
    status,
    retryable: true,
    suggestion: TRY_LATER,
  });
};
