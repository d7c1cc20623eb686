import { AsyncResource } from "node:async_hooks";
import type { Dispatcher } from "undici";
import { forward, type HopTrace, isAnswer, traceOf } from "./hop-trace.js";

/** Redirects followed per request, same origin only (undici's `redirect` interceptor follows them). */
export const MAX_REDIRECTS = 3;

/** Statuses undici's `redirect` interceptor follows when they carry a `Location`. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

/** Thrown when the client will not follow a redirect (internal to the client). */
export class RedirectRefused extends Error {
  constructor(
    /** Why, as the end of "… redirected GET <url> <why>; not followed". */
    readonly why: string,
    /** Whether the redirect went to another origin. */
    readonly crossOrigin: boolean,
  ) {
    super(`redirect ${why}; not followed`);
    this.name = "RedirectRefused";
  }
}

/** Where a redirect from the trace's hop goes, or why it is not followed. */
const nextHop = (trace: HopTrace, location: string | undefined): URL | RedirectRefused => {
  let next: URL | undefined;
  try {
    next = location === undefined ? undefined : new URL(location, trace.url);
  } catch {
    next = undefined;
  }
  if (next === undefined) return new RedirectRefused("without a valid Location header", false);
  if (next.origin !== trace.url.origin)
    return new RedirectRefused(`to another origin (${next.origin})`, true);
  if (trace.followed >= MAX_REDIRECTS) return new RedirectRefused(`more than ${MAX_REDIRECTS} times`, false);
  return next;
};

type OnEnd = NonNullable<Dispatcher.DispatchHandler["onResponseEnd"]>;

/** Whether a redirect with `status` keeps the request's method and body (a POST's 301/302/303 does not). */
const keepsMethod = (status: number, method: string): boolean =>
  method === "GET" ||
  method === "HEAD" ||
  status === 307 ||
  status === 308 ||
  (status !== 303 && method !== "POST");

/**
 * Interceptor under undici's `redirect`: keeps the trace at the current hop, and refuses (aborts
 * with {@link RedirectRefused}) a redirect off the origin, without a valid `Location` or past
 * {@link MAX_REDIRECTS}. Why not undici's alone: it follows redirects to any origin (stripping
 * credentials), while the client's credentials and requests never leave the service's origin; it
 * follows a redirect the caller takes as an answer (here its `Location` is held back on the trace);
 * and it refuses a redirect to the same URL (a server's "try again"), which is sent again here.
 */
export const guardRedirects: Dispatcher.DispatcherComposeInterceptor = (dispatch) => {
  const intercept = (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    const trace = traceOf(opts);
    if (trace === undefined) return dispatch(opts, handler);
    const origin = typeof opts.origin === "string" ? opts.origin : (opts.origin?.origin ?? trace.url.origin);
    trace.url = new URL(opts.path, origin);
    trace.method = opts.method;
    let again = false;
    // undici's `redirect` sends the next hop from this handler's end: bound here, that hop runs in the
    // caller's async context, where interceptors (the cassette's) find what they keep per request.
    const end: OnEnd = AsyncResource.bind((...[c, trailers]: Parameters<OnEnd>) => {
      if (again) intercept(opts, handler);
      else handler.onResponseEnd?.(c, trailers);
    });
    return dispatch(opts, {
      ...forward(handler),
      onResponseEnd: end,
      onResponseData: (c, chunk) => (again ? undefined : handler.onResponseData?.(c, chunk)),
      onResponseStart: (controller, status, headers, message) => {
        trace.status = status;
        const location = Array.isArray(headers.location) ? headers.location[0] : headers.location;
        if (REDIRECT_STATUSES.has(status) && isAnswer(trace, status)) {
          const { location: _, ...rest } = headers;
          trace.location = location;
          return handler.onResponseStart?.(controller, status, rest, message);
        }
        if (REDIRECT_STATUSES.has(status)) {
          const next = nextHop(trace, location);
          if (next instanceof RedirectRefused) return controller.abort(next);
          trace.followed++;
          trace.onHop();
          again = next.href === trace.url.href && keepsMethod(status, opts.method);
          if (again) return;
        }
        handler.onResponseStart?.(controller, status, headers, message);
      },
    });
  };
  return intercept;
};
