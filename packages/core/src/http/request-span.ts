import { AsyncLocalStorage } from "node:async_hooks";
import type * as Tracer from "effect/Tracer";
import { ToolFailure } from "../errors.js";
import type { Spans } from "../runtime/spans.js";
import { traceparentOf } from "../runtime/trace-context.js";
import type { HttpRequestOptions } from "./types.js";

/** The traced attempt a tool's requests belong to: their spans' parent and the caller's `tracestate`. */
export interface RequestParent {
  readonly spans: Spans;
  readonly span: Tracer.AnySpan;
  readonly tracestate: string | undefined;
}

/**
 * The traced attempt running now, set around a tool's `run` (as the cassette client's call tape is):
 * every HTTP client a plugin uses, `ctx.http` or the one its `setup` kept, finds the attempt here
 * without being handed it.
 */
export const requestParent = new AsyncLocalStorage<RequestParent>();

/**
 * The CLIENT span of a request made inside a traced attempt (`parent`: the client looks it up in
 * {@link requestParent}, and calls this only when there is one), named and described per the
 * OpenTelemetry HTTP conventions: `http.request.method`, `server.address`, `server.port`,
 * `url.template` when the plugin gave a `route`, `http.response.status_code`, `error.type`. Never a
 * query string, a path without a template, a header or a body: those may hold a key. Returns the
 * headers that name the span upstream, and its ends: `succeeded` with the response's status, `failed`
 * with the failure (a `ToolFailure`, or the abort reason).
 */
export const requestSpan = (parent: RequestParent, opts: HttpRequestOptions, url: URL) => {
  const { spans, tracestate } = parent;
  const method = opts.method ?? "GET";
  const span = spans.start(opts.route ? `${method} ${opts.route}` : method, "client", parent.span, {
    "http.request.method": method,
    "server.address": url.hostname,
    "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    "url.scheme": url.protocol.replace(":", ""),
    "url.template": opts.route,
  });
  return {
    headers: { traceparent: traceparentOf(span), ...(tracestate ? { tracestate } : {}) },
    succeeded: (status: number) => spans.end(span, undefined, { "http.response.status_code": status }),
    failed: (error: unknown) => {
      const failure = ToolFailure.isInstance(error) ? error : undefined;
      spans.end(
        span,
        {
          // The conventions' error.type: the status code of an HTTP error, else what went wrong.
          type: failure?.status ? String(failure.status) : (failure?.kind ?? "aborted"),
          message: failure?.message ?? "The request was cancelled.",
        },
        { "http.response.status_code": failure?.status },
      );
    },
  };
};
