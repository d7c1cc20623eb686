import { type ErrorKind, fail, ToolFailure } from "../errors.js";
import type { Redactor } from "./redact.js";
import type { HopTrace } from "./types.js";

/** What {@link failureForTransportError} needs to describe a failed exchange. */
export interface TransportFailureInput {
  readonly error: unknown;
  readonly method: string;
  /** The request URL, already redacted. */
  readonly url: string;
  /** `host[:port]` of the request. */
  readonly host: string;
  /** The service name used in messages (the host when none was configured). */
  readonly service: string;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** The response status, when the failure happened while reading the body. */
  readonly status?: number | undefined;
  readonly redact: Redactor;
}

/** The `code` of an error, its cause, or the first error of an `AggregateError` (happy eyeballs). */
export const errorCode = (error: unknown, depth = 0): string | undefined => {
  if (typeof error !== "object" || error === null || depth > 4) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof record.code === "string" && record.code !== "") return record.code;
  for (const inner of [...(Array.isArray(record.errors) ? record.errors : []), record.cause]) {
    const code = errorCode(inner, depth + 1);
    if (code !== undefined) return code;
  }
  return undefined;
};

const RETRY_LATER = "The service may be slow or down; try again later.";

const TLS_CODES =
  /^(?:CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

/** A failure as `describe` words it; `retryable` only where it differs from the kind's default. */
type Mapping = readonly [
  kind: ErrorKind,
  message: string,
  suggestion?: string | undefined,
  retryable?: boolean,
];

const describe = (code: string | undefined, input: TransportFailureInput, who: string): Mapping => {
  const where = `${input.method} ${input.url}`;
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return ["timeout", `Could not connect to ${who} within ${input.connectTimeoutMs} ms`, RETRY_LATER];
    case "UND_ERR_HEADERS_TIMEOUT":
      return ["timeout", `${who} did not answer within ${input.headersTimeoutMs} ms (${where})`, RETRY_LATER];
    case "UND_ERR_BODY_TIMEOUT": {
      const message = `${who} stopped sending the response body for ${input.bodyTimeoutMs} ms (${where})`;
      return ["timeout", message, RETRY_LATER];
    }
    case "ECONNREFUSED":
      return [
        "unavailable",
        `${who} refused the connection (${where})`,
        "Check that the service is running and that its URL setting points at it.",
      ];
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "EAI_FAIL":
      return [
        "unavailable",
        `Could not resolve the host name of ${who} (DNS lookup failed)`,
        "Check the host name in the service's URL setting and this machine's network.",
      ];
    case "ECONNRESET":
    case "EPIPE":
    case "ECONNABORTED":
    case "UND_ERR_SOCKET":
      return [
        "unavailable",
        input.status === undefined
          ? `${who} closed the connection unexpectedly (${where})`
          : `${who} closed the connection before the whole response arrived (HTTP ${input.status}, ${where})`,
        "The connection dropped; try again in a moment.",
      ];
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ENETDOWN":
    case "EHOSTDOWN":
      return [
        "unavailable",
        `${who} is unreachable from this machine (${code})`,
        "Check this machine's network connection, then try again.",
      ];
    case "UND_ERR_RES_EXCEEDED_MAX_SIZE":
      return [
        "upstream",
        `${who} sent a response that is too large (${where})`,
        "Ask for less data: a narrower query, fewer results or a smaller page.",
        false,
      ];
    case "UND_ERR_HEADERS_OVERFLOW":
      return [
        "upstream",
        `${who} sent response headers larger than the client accepts (16 KiB) for ${where}`,
        "The service's answer is malformed and a retry will fail the same way; use another source, or report it to the service.",
        false,
      ];
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return [
        "upstream",
        `${who} sent a truncated response (${where})`,
        "The response was cut short; try again in a moment.",
      ];
    case "UND_ERR_CLOSED":
    case "UND_ERR_DESTROYED":
      return ["internal", `The HTTP client has been closed; cannot send ${where}`, undefined, false];
  }
  if (code !== undefined && TLS_CODES.test(code)) {
    return [
      "unavailable",
      `The TLS certificate of ${who} could not be verified (${code})`,
      "Check the service's URL setting (host name, https) and this machine's trusted certificates.",
      false,
    ];
  }
  if (code?.startsWith("HPE_")) {
    return [
      "upstream",
      `${who} sent a malformed HTTP response (${code}) for ${where}`,
      "Try again later; if it keeps failing, use another source.",
    ];
  }
  const text = input.error instanceof Error ? input.error.message : String(input.error);
  if (code === "UND_ERR_INVALID_ARG" || input.error instanceof TypeError)
    return ["internal", `Invalid HTTP request ${where}: ${text}`, undefined, false];
  return ["unavailable", `Request to ${who} failed (${where}): ${code ?? text}`, RETRY_LATER];
};

/** A copy of the original error that keeps its name and code but only its redacted message. */
const sanitizedCause = (error: unknown, code: string | undefined, redact: Redactor): Error => {
  const copy = new Error(redact(error instanceof Error ? error.message : String(error)));
  copy.name = error instanceof Error ? error.name : "Error";
  return code === undefined ? copy : Object.assign(copy, { code });
};

/**
 * Turns an error thrown by undici or the network (refused, DNS, reset, TLS, timeouts, malformed
 * response) into a `ToolFailure` whose message names the host and carries no secret. The original
 * error is kept as `cause` only as a redacted copy.
 *
 * @example
 * const failure = failureForTransportError({
 *   error: new Error("connect ECONNREFUSED"), method: "GET", url: "https://api.fda.gov/drug/x.json",
 *   host: "api.fda.gov", service: "openFDA", connectTimeoutMs: 10_000, headersTimeoutMs: 30_000,
 *   bodyTimeoutMs: 30_000, redact: makeRedactor([]),
 * })
 */
export const failureForTransportError = (input: TransportFailureInput): ToolFailure => {
  if (ToolFailure.isInstance(input.error)) return input.error;
  const code = errorCode(input.error);
  const who = input.service === input.host ? input.host : `${input.service} (${input.host})`;
  const [kind, message, suggestion, retryable] = describe(code, input, who);
  return ToolFailure.make({
    kind,
    message: input.redact(message),
    ...(retryable === undefined ? {} : { retryable }),
    ...(suggestion === undefined ? {} : { suggestion: input.redact(suggestion) }),
    ...(input.status === undefined ? {} : { status: input.status }),
    cause: sanitizedCause(input.error, code, input.redact),
  });
};

/**
 * The `ToolFailure` of a failed request (the caller's abort is not one: the client rethrows it):
 * `timeout` at the client's deadline (`AbortSignal.timeout`'s `TimeoutError`), an answer the client
 * refused as it was (`refusals.ts`: a redirect not followed, a body too large or that does not
 * decode), and the transport error's kind (`failureForTransportError`) for the rest. Every message
 * is redacted.
 */
export const requestFailure = (
  error: unknown,
  trace: HopTrace,
  timeoutMs: number | undefined,
  connectTimeoutMs: number,
) => {
  const { service, redact } = trace;
  if (error instanceof DOMException && error.name === "TimeoutError") {
    const where = `${trace.method} ${trace.url.href}`;
    return fail.timeout(
      redact(`${service} did not complete ${where} within ${timeoutMs} ms`),
      trace.status === undefined ? {} : { status: trace.status },
    );
  }
  // The trace's method, service, status, body and headers timeouts and redactor, as they are.
  return failureForTransportError({
    ...trace,
    error,
    url: redact(trace.url.href),
    host: trace.url.host,
    connectTimeoutMs,
  });
};
