import { fail } from "../errors.js";
import type { HopTrace } from "./dispatcher.js";
import { failureForTransportError } from "./transport-error.js";

/** The limits a request had when it failed. */
export interface RequestLimits {
  readonly timeoutMs: number | undefined;
  readonly connectTimeoutMs: number;
}

/**
 * The `ToolFailure` of a failed request (the caller's abort is not one: the client rethrows it):
 * `timeout` at the client's deadline (`AbortSignal.timeout`'s `TimeoutError`), an answer the client
 * refused as it was (`refusals.ts`: a redirect not followed, a body too large or that does not
 * decode), and the transport error's kind (`failureForTransportError`) for the rest. Every message
 * is redacted.
 */
export const requestFailure = (error: unknown, trace: HopTrace, limits: RequestLimits) => {
  const { service, redact } = trace;
  if (error instanceof DOMException && error.name === "TimeoutError") {
    const where = `${trace.method} ${trace.url.href}`;
    return fail.timeout(
      redact(`${service} did not complete ${where} within ${limits.timeoutMs} ms`),
      trace.status === undefined ? {} : { status: trace.status },
    );
  }
  return failureForTransportError({
    error,
    method: trace.method,
    url: redact(trace.url.href),
    host: trace.url.host,
    service,
    connectTimeoutMs: limits.connectTimeoutMs,
    headersTimeoutMs: trace.headersTimeoutMs,
    bodyTimeoutMs: trace.bodyTimeoutMs,
    status: trace.status,
    redact,
  });
};
