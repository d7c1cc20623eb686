import { type ErrorKind, ToolFailure } from "../errors.js";
import { upstreamErrorMessage } from "./error-body.js";
import type { Redactor } from "./redact.js";
import { retryAfterFromHeaders } from "./retry-after.js";
import type { HttpHeaders } from "./types.js";

/** The statuses whose kind is not `upstream`. */
const KIND_BY_STATUS: Readonly<Record<number, ErrorKind>> = {
  400: "invalid_input",
  422: "invalid_input",
  401: "access_denied",
  403: "access_denied",
  408: "timeout",
  504: "timeout",
  429: "rate_limited",
  503: "unavailable",
};

/**
 * The failure kind for an HTTP status the caller did not accept: 400/422 → `invalid_input`,
 * 401/403 → `access_denied`, 408/504 → `timeout`, 429 → `rate_limited`, 503 → `unavailable`,
 * anything else → `upstream`. Returns `undefined` for 1xx/2xx.
 *
 * @example
 * statusToKind(429) // "rate_limited"
 */
export const statusToKind = (status: number): ErrorKind | undefined =>
  status < 300 ? undefined : (KIND_BY_STATUS[status] ?? "upstream");

/** What {@link failureForStatus} needs to know about the response and the request. */
export interface StatusFailureInput {
  readonly status: number;
  readonly headers: HttpHeaders;
  /** The (possibly truncated) body of the error response. */
  readonly body: string;
  readonly method: string;
  /** The request URL, already redacted. */
  readonly url: string;
  /** The service name used in messages. */
  readonly service: string;
  /** Whether the request carried a credential (a secret was given). */
  readonly sentCredentials: boolean;
  /** The setting holding the API key, named in access-denied suggestions. */
  readonly apiKeyVar?: string | undefined;
  readonly redact: Redactor;
  readonly now?: number;
}

const seconds = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.ceil(ms / 1000)} s`);

const accessSuggestion = (input: StatusFailureInput): string => {
  const variable = input.apiKeyVar;
  if (input.sentCredentials) {
    return variable
      ? `Check that ${variable} holds a valid API key with access to this resource.`
      : "Check that the configured API key is valid and has access to this resource.";
  }
  return variable
    ? `This endpoint needs credentials: set ${variable}.`
    : "This endpoint needs credentials; configure an API key for the service.";
};

/**
 * Builds the `ToolFailure` for a response whose status the caller did not accept, with the
 * upstream's own error message when the body has one, `status`, and `retryAfterMs` from
 * `Retry-After` (and common rate-limit headers) on 429 and 5xx. All text is redacted.
 *
 * @example
 * const failure = failureForStatus({
 *   status: 404, headers: {}, body: "Not found", method: "GET", url: "https://api.fda.gov/drug/x.json",
 *   service: "openFDA", sentCredentials: false, redact: makeRedactor([]),
 * })
 */
export const failureForStatus = (input: StatusFailureInput): ToolFailure => {
  const { status, service, redact } = input;
  const kind = statusToKind(status) ?? "upstream";
  const detail = upstreamErrorMessage(input.body);
  const said = detail === undefined ? "" : `: ${detail}`;
  const where = `${input.method} ${input.url}`;
  const retryAfterMs =
    status === 429 || status >= 500
      ? retryAfterFromHeaders(input.headers, input.now ?? Date.now())
      : undefined;
  const base = { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  const after = retryAfterMs === undefined ? "" : `; retry after ${seconds(retryAfterMs)}`;
  const make = (message: string, extra: { readonly retryable?: boolean; readonly suggestion: string }) =>
    ToolFailure.make({
      kind,
      message: redact(message),
      ...base,
      ...extra,
      suggestion: redact(extra.suggestion),
    });

  switch (kind) {
    case "invalid_input":
      return make(`${service} rejected the request (HTTP ${status})${said}`, {
        suggestion: "Correct the arguments the upstream complained about and call again.",
      });
    case "access_denied":
      return make(`${service} denied access (HTTP ${status})${said}`, {
        suggestion: accessSuggestion(input),
      });
    case "timeout":
      return make(`${service} timed out (HTTP ${status}) for ${where}${said}`, {
        suggestion: "The service may be slow or down; try again later.",
      });
    case "rate_limited":
      return make(`${service} is rate limiting requests (HTTP 429)${said}${after}`, {
        suggestion: "Wait before calling again, and make fewer calls.",
      });
    case "unavailable":
      return make(`${service} is temporarily unavailable (HTTP ${status}) for ${where}${said}${after}`, {
        retryable: true,
        suggestion: "The service is overloaded or in maintenance; try again later.",
      });
    default:
      break;
  }
  if (status === 404) {
    return make(`${service} found nothing at ${where} (HTTP 404)${said}`, {
      retryable: false,
      suggestion: "Check the identifier or path; the resource does not exist upstream.",
    });
  }
  if (status >= 500)
    return make(`${service} failed (HTTP ${status}) for ${where}${said}`, {
      retryable: true,
      suggestion: "The service failed on its side; try again in a moment.",
    });
  if (status >= 300 && status < 400) {
    return make(`${service} answered with an unexpected redirect (HTTP ${status}) for ${where}`, {
      retryable: false,
      suggestion: "The service sent a redirect the tool cannot follow; use another source.",
    });
  }
  return make(`${service} refused ${where} (HTTP ${status})${said}`, {
    retryable: false,
    suggestion: "The service refused this request; change the arguments or use another source.",
  });
};
