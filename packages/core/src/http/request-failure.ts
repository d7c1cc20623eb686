import { fail } from "../errors.js";
import {
  BodyDecodeError,
  BodyTooLargeError,
  RedirectRefused,
  UnsupportedEncodingError,
} from "./client-errors.js";
import { ACCEPT_ENCODING, type HopTrace } from "./dispatcher.js";
import type { Redactor } from "./redact.js";
import { failureForTransportError } from "./transport-error.js";

/** Where a request was, and its limits, when it failed. */
export interface FailedRequest {
  readonly service: string;
  /** The request's hop, its last status and its timeouts. */
  readonly trace: HopTrace;
  readonly timeoutMs: number | undefined;
  readonly connectTimeoutMs: number;
  readonly redact: Redactor;
}

/**
 * The `ToolFailure` of a failed request (the caller's abort is not one: the client rethrows it):
 * `timeout` at the client's deadline (`AbortSignal.timeout`'s `TimeoutError`), `upstream` for a
 * redirect not followed, a body too large, in a coding the client cannot decode or that does not
 * decode, and the transport error's kind (`failureForTransportError`) for the rest. Every message is
 * redacted.
 */
export const requestFailure = (error: unknown, at: FailedRequest) => {
  const { service, trace, redact } = at;
  const withStatus = trace.status === undefined ? {} : { status: trace.status };
  const where = `${trace.method} ${trace.url.href}`;
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return fail.timeout(redact(`${service} did not complete ${where} within ${at.timeoutMs} ms`), withStatus);
  }
  const upstream = (message: string, retryable: boolean, suggestion: string) =>
    fail.upstream(redact(message), { ...withStatus, retryable, suggestion });
  if (error instanceof RedirectRefused) {
    return upstream(
      `${service} redirected ${where} ${error.why}; not followed`,
      false,
      error.crossOrigin
        ? "The client follows redirects only within the service's own origin (credentials and requests never go to another host). If the service has moved, update its URL setting; otherwise use another source."
        : "The service answered with a broken redirect; retrying will not help. Use another source.",
    );
  }
  if (error instanceof BodyTooLargeError) {
    return error.codings.length > 0
      ? upstream(
          `${service} sent a ${error.codings.join(", ")}-compressed response that decodes to more than ${error.limit} bytes (the body limit) for ${where}; refused`,
          false,
          "Ask for less data (a narrower query, fewer results or a smaller page); if a small request decodes this large, the service is misbehaving: use another source.",
        )
      : upstream(
          `${service} sent a response larger than ${error.limit} bytes for ${where}`,
          false,
          "Ask for less data: a narrower query, fewer results or a smaller page.",
        );
  }
  if (error instanceof UnsupportedEncodingError) {
    return upstream(
      `${service} sent a body in content-encoding "${error.encoding}", which the client cannot decode (it accepts ${ACCEPT_ENCODING}), for ${where}`,
      false,
      "The service ignores the encodings the client accepts; retrying will not help. Use another source, or report it to the plugin's maintainers.",
    );
  }
  if (error instanceof BodyDecodeError) {
    return upstream(
      `${service} sent a ${error.encoding}-compressed body that does not decode (corrupt or cut short) for ${where}`,
      true,
      "Try again in a moment; if it keeps failing, the service is sending broken data.",
    );
  }
  return failureForTransportError({
    error,
    method: trace.method,
    url: redact(trace.url.href),
    host: trace.url.host,
    service,
    connectTimeoutMs: at.connectTimeoutMs,
    headersTimeoutMs: trace.headersTimeoutMs,
    bodyTimeoutMs: trace.bodyTimeoutMs,
    status: trace.status,
    redact,
  });
};
