import { type ErrorKind, ToolFailure } from "../errors.js";
import type { Redactor } from "./redact.js";

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
  if (Array.isArray(record.errors)) {
    for (const inner of record.errors) {
      const code = errorCode(inner, depth + 1);
      if (code !== undefined) return code;
    }
  }
  return errorCode(record.cause, depth + 1);
};

const RETRY_LATER = "The service may be slow or down; try again later.";

const TLS_CODES =
  /^(?:CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

interface Mapping {
  readonly kind: ErrorKind;
  readonly message: string;
  readonly retryable?: boolean;
  readonly suggestion?: string;
}

const describe = (code: string | undefined, input: TransportFailureInput, who: string): Mapping => {
  const where = `${input.method} ${input.url}`;
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return {
        kind: "timeout",
        message: `Could not connect to ${who} within ${input.connectTimeoutMs} ms`,
        suggestion: RETRY_LATER,
      };
    case "UND_ERR_HEADERS_TIMEOUT":
      return {
        kind: "timeout",
        message: `${who} did not answer within ${input.headersTimeoutMs} ms (${where})`,
        suggestion: RETRY_LATER,
      };
    case "UND_ERR_BODY_TIMEOUT":
      return {
        kind: "timeout",
        message: `${who} stopped sending the response body for ${input.bodyTimeoutMs} ms (${where})`,
        suggestion: RETRY_LATER,
      };
    case "ECONNREFUSED":
      return {
        kind: "unavailable",
        message: `${who} refused the connection (${where})`,
        suggestion: "Check that the service is running and that its URL setting points at it.",
      };
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "EAI_FAIL":
      return {
        kind: "unavailable",
        message: `Could not resolve the host name of ${who} (DNS lookup failed)`,
        suggestion: "Check the host name in the service's URL setting and this machine's network.",
      };
    case "ECONNRESET":
    case "EPIPE":
    case "ECONNABORTED":
    case "UND_ERR_SOCKET":
      return {
        kind: "unavailable",
        message:
          input.status === undefined
            ? `${who} closed the connection unexpectedly (${where})`
            : `${who} closed the connection before the whole response arrived (HTTP ${input.status}, ${where})`,
        suggestion: "The connection dropped; try again in a moment.",
      };
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ENETDOWN":
    case "EHOSTDOWN":
      return {
        kind: "unavailable",
        message: `${who} is unreachable from this machine (${code})`,
        suggestion: "Check this machine's network connection, then try again.",
      };
    case "UND_ERR_RES_EXCEEDED_MAX_SIZE":
      return {
        kind: "upstream",
        message: `${who} sent a response that is too large (${where})`,
        retryable: false,
        suggestion: "Ask for less data: a narrower query, fewer results or a smaller page.",
      };
    case "UND_ERR_HEADERS_OVERFLOW":
      return {
        kind: "upstream",
        message: `${who} sent response headers larger than the client accepts (16 KiB) for ${where}`,
        retryable: false,
        suggestion:
          "The service's answer is malformed and a retry will fail the same way; use another source, or report it to the service.",
      };
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return {
        kind: "upstream",
        message: `${who} sent a truncated response (${where})`,
        suggestion: "The response was cut short; try again in a moment.",
      };
    case "UND_ERR_CLOSED":
    case "UND_ERR_DESTROYED":
      return {
        kind: "internal",
        message: `The HTTP client has been closed; cannot send ${where}`,
        retryable: false,
      };
    default:
      break;
  }
  if (code !== undefined && TLS_CODES.test(code)) {
    return {
      kind: "unavailable",
      message: `The TLS certificate of ${who} could not be verified (${code})`,
      retryable: false,
      suggestion:
        "Check the service's URL setting (host name, https) and this machine's trusted certificates.",
    };
  }
  if (code?.startsWith("HPE_")) {
    return {
      kind: "upstream",
      message: `${who} sent a malformed HTTP response (${code}) for ${where}`,
      suggestion: "Try again later; if it keeps failing, use another source.",
    };
  }
  const text = input.error instanceof Error ? input.error.message : String(input.error);
  if (code === "UND_ERR_INVALID_ARG" || input.error instanceof TypeError) {
    return { kind: "internal", message: `Invalid HTTP request ${where}: ${text}`, retryable: false };
  }
  return {
    kind: "unavailable",
    message: `Request to ${who} failed (${where}): ${code ?? text}`,
    suggestion: RETRY_LATER,
  };
};

/** A copy of the original error that keeps its name and code but only its redacted message. */
const sanitizedCause = (error: unknown, code: string | undefined, redact: Redactor): Error => {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  const copy = new Error(redact(message));
  copy.name = name;
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
  const mapping = describe(code, input, who);
  return ToolFailure.make({
    kind: mapping.kind,
    message: input.redact(mapping.message),
    ...(mapping.retryable === undefined ? {} : { retryable: mapping.retryable }),
    ...(mapping.suggestion === undefined ? {} : { suggestion: input.redact(mapping.suggestion) }),
    ...(input.status === undefined ? {} : { status: input.status }),
    cause: sanitizedCause(input.error, code, input.redact),
  });
};
