import type * as Tracer from "effect/Tracer";
import { ToolFailure } from "../errors.js";
import { type Spans, traceparentOf } from "../runtime/spans.js";
import type { HttpClient, HttpJsonOptions, HttpRequestOptions, HttpResponse } from "./types.js";

/**
 * The HTTP client of one traced attempt: each request runs in a CLIENT span, a child of the attempt's
 * span, named and described per the OpenTelemetry HTTP conventions (`http.request.method`,
 * `server.address`, `server.port`, `url.template` when the plugin gave a `route`,
 * `http.response.status_code`, `error.type`), and carries that span as its `traceparent` (with the
 * caller's `tracestate`). Never a query string, a path without a template, a header or a body: those
 * may hold a key.
 */
export const withRequestSpans = (
  http: HttpClient,
  spans: Spans,
  parent: Tracer.AnySpan,
  tracestate: string | undefined,
): HttpClient => {
  const request = (opts: HttpRequestOptions, accept?: string): Promise<HttpResponse> => {
    const method = opts.method ?? "GET";
    const url = typeof opts.url === "string" ? safeUrl(opts.url) : opts.url;
    const span = spans.start(opts.route ? `${method} ${opts.route}` : method, "client", parent, {
      "http.request.method": method,
      "server.address": url?.hostname,
      "server.port": url ? Number(url.port || (url.protocol === "https:" ? 443 : 80)) : undefined,
      "url.scheme": url?.protocol.replace(":", ""),
      "url.template": opts.route,
    });
    const headers = {
      ...(accept ? { accept } : {}),
      ...opts.headers,
      traceparent: traceparentOf(span),
      ...(tracestate ? { tracestate } : {}),
    };
    return http.request({ ...opts, headers }).then(
      (response) => {
        spans.end(span, undefined, { "http.response.status_code": response.status });
        return response;
      },
      (error: unknown) => {
        const failure = ToolFailure.isInstance(error) ? error : undefined;
        spans.end(
          span,
          {
            // The conventions' error.type: the status code for an HTTP error, else what went wrong.
            type: failure?.status ? String(failure.status) : (failure?.kind ?? "aborted"),
            message: failure?.message ?? "The request was cancelled.",
          },
          { "http.response.status_code": failure?.status },
        );
        throw error;
      },
    );
  };
  return {
    request: (opts) => request(opts),
    // As the plain client's `json` does: asked for JSON, and the body parsed and checked with `schema`.
    json: <T>(opts: HttpJsonOptions<T>) =>
      request(opts, "application/json").then((response) => response.json<T>(opts.schema)),
    close: () => http.close(),
  };
};

const safeUrl = (url: string): URL | undefined => {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
};
