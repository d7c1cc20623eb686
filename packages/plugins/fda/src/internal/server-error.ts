import { fail, parseRetryAfter, type ToolFailure } from "@quiver/core";
import { z } from "zod";

/** openFDA's error body: `{ error: { code, message, details? } }` (ApiError in its api.js). */
const errorBody = z.object({
  error: z
    .object({ code: z.string().optional(), message: z.string().optional(), details: z.string().optional() })
    .optional(),
});

/** openFDA's error object, when the body is one. */
export const openFdaError = (body: string): z.output<typeof errorBody>["error"] => {
  try {
    return errorBody.parse(JSON.parse(body)).error;
  } catch {
    return undefined;
  }
};

/**
 * Elasticsearch's names for a query it could not parse. openFDA answers every Elasticsearch failure
 * with HTTP 500 SERVER_ERROR and puts the failure's message in `details`
 * ("[token_mgr_error] token_mgr_error: Lexical error at line 1, column 32. ..."); an outage says
 * something else there ("No Living connections", "Request Timeout after 30000ms") or nothing.
 */
const PARSE_FAILURE =
  /\b(?:token_mgr_error|parse_exception|query_shard_exception|query_parsing_exception)\b|Lexical error|Cannot parse|Failed to parse/i;

/** The `details` of openFDA's 500 body when it says the search could not be parsed. */
export const parseFailureDetails = (body: string): string | undefined => {
  const error = openFdaError(body);
  return error?.code === "SERVER_ERROR" && error.details && PARSE_FAILURE.test(error.details)
    ? error.details
    : undefined;
};

/** The failure for a search openFDA could not parse: the same query would fail again, so not retryable. */
export const unparsableSearch = (path: string, search: string, details: string): ToolFailure =>
  fail.invalidInput(
    `openFDA could not parse the search sent to ${path} (HTTP 500 SERVER_ERROR: ${details.slice(0, 200)}); search was ${JSON.stringify(search)}.`,
    {
      retryable: false,
      status: 500,
      suggestion:
        "Sending the same criteria again fails the same way: rephrase them with plain words (letters, digits, spaces) and call again.",
    },
  );

/** The failure for any other openFDA 500: a failure on its side, worth retrying. */
export const serverFailure = (path: string, body: string, retryAfter: string | undefined): ToolFailure => {
  const said = openFdaError(body)?.message;
  const retryAfterMs = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter);
  return fail.upstream(`openFDA failed (HTTP 500) for ${path}${said ? `: ${said.slice(0, 200)}` : ""}.`, {
    retryable: true,
    status: 500,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    suggestion: "openFDA failed on its side; try again in a moment.",
  });
};
