import type * as Tracer from "effect/Tracer";
// Read where requests come in (the host's routes, the MCP server), so it imports nothing of Effect: the
// spans that use it live in the runtime (`call-trace.ts`), loaded at the first call.

/**
 * A caller's W3C trace context (https://www.w3.org/TR/trace-context/): the `traceparent` (and
 * `tracestate`) a call joins, as an HTTP request's headers or an MCP request's `params._meta` carry it.
 */
export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string | undefined;
}

/** What a caller's trace context can be read from: HTTP headers (node's or fetch's) or MCP `_meta`. */
export type TraceCarrier =
  | Readonly<Record<string, unknown>>
  | { readonly get: (name: string) => string | null }
  | undefined;

const field = (carrier: NonNullable<TraceCarrier>, name: string): string | undefined => {
  const value =
    typeof carrier.get === "function"
      ? (carrier as { get: (n: string) => string | null }).get(name)
      : (carrier as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * The caller's trace context in `carrier`, or undefined when it carries no `traceparent`.
 *
 * Use it where a request comes in: pass the result as `CallOptions.trace`, and the call's spans join
 * the caller's trace.
 *
 * @example
 * const trace = traceContextOf(req.headers);
 * await catalog.call("fda_search_drugs", input, { ...(trace ? { trace } : {}) });
 */
export const traceContextOf = (carrier: TraceCarrier): TraceContext | undefined => {
  if (!carrier) return undefined;
  const traceparent = field(carrier, "traceparent");
  if (!traceparent) return undefined;
  const tracestate = field(carrier, "tracestate");
  return tracestate ? { traceparent, tracestate } : { traceparent };
};

/**
 * The `traceparent` header value naming `span` as the parent of what it is sent with. Here, beside the
 * header's parsing and away from the span code, so the HTTP client sends it without loading Effect's
 * tracer at start-up.
 */
export const traceparentOf = (span: Tracer.AnySpan): string =>
  `00-${span.traceId.padStart(32, "0")}-${span.spanId}-${span.sampled ? "01" : "00"}`;
