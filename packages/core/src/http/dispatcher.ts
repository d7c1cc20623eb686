import { AsyncResource } from "node:async_hooks";
import type { Agent, Dispatcher } from "undici";
import type { ToolFailure } from "../errors.js";
import { redirectRefused, refused, where } from "./refusals.js";
import type { HopTrace, HttpClientOptions } from "./types.js";

/** The content codings the client asks for, as fetch does (`zstd` is decoded too when sent). */
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** The content codings undici's `decompress` interceptor undoes. */
const DECODABLE: ReadonlySet<string> = new Set(["gzip", "x-gzip", "deflate", "br", "zstd"]);

/** Most codings stacked on one body (undici's bound too, against resource exhaustion). */
const MAX_CODINGS = 5;

/** Redirects followed per request, same origin only (by undici's `redirect` interceptor). */
const MAX_REDIRECTS = 3;

/** Statuses undici's `redirect` interceptor follows when they carry a `Location`. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

type Interceptor = Dispatcher.DispatcherComposeInterceptor;
type OnEnd = NonNullable<Dispatcher.DispatchHandler["onResponseEnd"]>;

const traceOf = (opts: Dispatcher.DispatchOptions): HopTrace | undefined =>
  (opts as { quiverTrace?: HopTrace }).quiverTrace;

/** Whether the request takes `status` as an answer (2xx or accepted). */
export const isAnswer = (trace: HopTrace, status: number): boolean =>
  (status >= 200 && status < 300) || trace.accepted.has(status);

/** An answer in a content coding the client cannot decode. */
const unsupportedEncoding = (at: HopTrace, encoding: string): ToolFailure =>
  refused(
    at,
    `${at.service} sent a body in content-encoding "${encoding}", which the client cannot decode (it accepts ${ACCEPT_ENCODING}), for ${where(at)}`,
    "The service ignores the encodings the client accepts; retrying will not help. Use another source, or report it to the plugin's maintainers.",
  );

/** The codings of a `Content-Encoding` header, in the order they were applied (`identity` dropped). */
const codingsOf = (header: string | string[] | undefined): string[] =>
  (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");

/** A handler passing every event on to `handler` (to override some of them). */
const forward = (handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler => ({
  onRequestStart: (c, context) => handler.onRequestStart?.(c, context),
  onRequestUpgrade: (c, s, h, socket) => handler.onRequestUpgrade?.(c, s, h, socket),
  onResponseStart: (c, s, h, m) => handler.onResponseStart?.(c, s, h, m),
  onResponseData: (c, chunk) => handler.onResponseData?.(c, chunk),
  onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
  onResponseError: (c, error) => handler.onResponseError?.(c, error),
});

/**
 * Interceptor nearest the network (under undici's `decompress`): runs each hop's headers timer and
 * then its body-idle timer, notes the codings its body came in and its raw size, and refuses an
 * answer in a coding `decompress` would pass on undecoded. Why its own timers: undici's headers and
 * body timeouts run on a coarse timer wheel (they fire up to a second late, whatever their length);
 * they stay set as a backstop, and these abort with undici's own `HeadersTimeoutError` /
 * `BodyTimeoutError`, through the request's signal (a hop may still be connecting).
 */
const watchWire =
  (errors: typeof import("undici").errors): Interceptor =>
  (dispatch) =>
  (opts, handler) => {
    const trace = traceOf(opts);
    if (trace === undefined) return dispatch(opts, handler);
    const arm = (ms: number, error: () => Error) => {
      clearTimeout(trace.timer);
      trace.timer = setTimeout(() => trace.abort(error()), ms);
    };
    arm(trace.headersTimeoutMs, () => new errors.HeadersTimeoutError());
    return dispatch(opts, {
      ...forward(handler),
      onResponseStart: (controller, status, headers, message) => {
        arm(trace.bodyTimeoutMs, () => new errors.BodyTimeoutError());
        const codings = codingsOf(headers["content-encoding"]);
        trace.codings = codings;
        trace.rawBytes = 0;
        const bodyless = opts.method === "HEAD" || status === 204 || status === 304;
        const unknown =
          codings.length > MAX_CODINGS ? codings.join(", ") : codings.find((c) => !DECODABLE.has(c));
        if (bodyless || unknown === undefined)
          return handler.onResponseStart?.(controller, status, headers, message);
        if (isAnswer(trace, status)) return controller.abort(unsupportedEncoding(trace, unknown));
        // An error page in a coding we cannot decode: read as is, its status still says what happened.
        const { "content-encoding": _, ...rest } = headers;
        trace.codings = [];
        handler.onResponseStart?.(controller, status, rest, message);
      },
      onResponseData: (controller, chunk) => {
        trace.timer?.refresh();
        trace.rawBytes += chunk.length;
        handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => {
        clearTimeout(trace.timer);
        handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => {
        clearTimeout(trace.timer);
        handler.onResponseError?.(controller, error);
      },
    });
  };

/** Where a redirect from the trace's hop goes, or why it is not followed. */
const nextHop = (trace: HopTrace, location: string | undefined): URL | ToolFailure => {
  const next = location === undefined ? null : URL.parse(location, trace.url.href);
  if (!next) return redirectRefused(trace, "without a valid Location header", false);
  if (next.origin !== trace.url.origin)
    return redirectRefused(trace, `to another origin (${next.origin})`, true);
  if (trace.followed >= MAX_REDIRECTS)
    return redirectRefused(trace, `more than ${MAX_REDIRECTS} times`, false);
  next.hash = "";
  return next;
};

/** Whether a redirect with `status` keeps the request's method and body (a POST's 301/302/303 does not). */
const keepsMethod = (status: number, method: string): boolean =>
  ["GET", "HEAD"].includes(method) ||
  status === 307 ||
  status === 308 ||
  (status !== 303 && method !== "POST");

/**
 * Interceptor under undici's `redirect` (above `options.interceptors`, so a replayed hop is checked
 * too): keeps the trace at the current hop, counts redirects, and refuses (aborts with
 * {@link redirectRefused}) one off the origin, without a valid `Location`, past
 * {@link MAX_REDIRECTS} or back to an earlier URL. A redirect to the same URL that keeps the method
 * (a server's "try again") it sends again itself. Why not undici's alone: it follows redirects to
 * any origin (stripping only some credential headers), while the client's requests never leave the
 * service's origin; and it refuses a redirect to the URL it came from as a loop.
 */
const guardRedirects: Interceptor = (dispatch) => {
  const intercept = (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    const trace = traceOf(opts);
    if (trace === undefined) return dispatch(opts, handler);
    trace.url = new URL(opts.path, opts.origin);
    trace.method = opts.method;
    trace.visited.add(trace.url.href);
    let again = false;
    return dispatch(opts, {
      ...forward(handler),
      // undici's `redirect` sends the next hop from this handler's end: bound here, that hop runs in
      // the caller's async context, where interceptors (the cassette's) find what they keep per request.
      onResponseEnd: AsyncResource.bind((...[c, trailers]: Parameters<OnEnd>) =>
        again ? intercept(opts, handler) : handler.onResponseEnd?.(c, trailers),
      ),
      onResponseData: (c, chunk) => (again ? undefined : handler.onResponseData?.(c, chunk)),
      onResponseStart: (controller, status, headers, message) => {
        trace.status = status;
        if (REDIRECT_STATUSES.has(status) && !trace.accepted.has(status)) {
          const next = nextHop(trace, [headers.location].flat()[0]);
          if (!(next instanceof URL)) return controller.abort(next);
          trace.followed++;
          again = next.href === trace.url.href && keepsMethod(status, opts.method);
          if (again) return;
          if (trace.visited.has(next.href))
            return controller.abort(redirectRefused(trace, "in a loop", false));
        }
        handler.onResponseStart?.(controller, status, headers, message);
      },
    });
  };
  return intercept;
};

/**
 * Imports undici (at a client's first request: a host that never reaches an upstream never loads
 * it) and composes the client's dispatcher on `options.dispatcher` or on its own `Agent` (a
 * keep-alive pool per origin, made with `agent`). Nearest the network first: the wire watched
 * (`watchWire`), bodies decoded by undici's `decompress` (error pages too, for their message),
 * `options.interceptors`, redirects checked (`guardRedirects`), then followed by undici's `redirect`.
 * Returns it with the agent the client owns (none when it was given a dispatcher).
 */
export const makeDispatcher = async (
  options: Pick<HttpClientOptions, "dispatcher" | "interceptors">,
  agent: Agent.Options,
): Promise<{ readonly dispatcher: Dispatcher; readonly ownAgent: Agent | undefined }> => {
  const undici = await import("undici");
  const ownAgent = options.dispatcher === undefined ? new undici.Agent(agent) : undefined;
  const dispatcher = (options.dispatcher ?? ownAgent!).compose(
    watchWire(undici.errors),
    undici.interceptors.decompress({ skipErrorResponses: false }),
    ...(options.interceptors ?? []),
    guardRedirects,
    undici.interceptors.redirect({ maxRedirections: MAX_REDIRECTS }),
  );
  return { dispatcher, ownAgent };
};
