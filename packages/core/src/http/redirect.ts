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

/** Why a redirect from the trace's hop to `location` is not followed, or `undefined` to follow it. */
const refusal = (trace: HopTrace, location: string | undefined): RedirectRefused | undefined => {
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
  return undefined;
};

/**
 * Interceptor under undici's `redirect`: keeps the trace at the current hop, and refuses (aborts
 * with {@link RedirectRefused}) a redirect off the origin, without a valid `Location` or past
 * {@link MAX_REDIRECTS}. Why not undici's alone: it follows redirects to any origin (stripping
 * credentials), while the client's credentials and requests never leave the service's origin.
 */
export const guardRedirects: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  const trace = traceOf(opts);
  if (trace === undefined) return dispatch(opts, handler);
  const origin = typeof opts.origin === "string" ? opts.origin : (opts.origin?.origin ?? trace.url.origin);
  trace.url = new URL(opts.path, origin);
  trace.method = opts.method;
  // undici's `redirect` sends the next hop from this handler's end: bound here, that hop runs in the
  // caller's async context, where interceptors (the cassette's) find what they keep per request.
  const onResponseEnd = AsyncResource.bind(handler.onResponseEnd?.bind(handler) ?? (() => {}));
  return dispatch(opts, {
    ...forward(handler),
    onResponseEnd,
    onResponseStart: (controller, status, headers, message) => {
      trace.status = status;
      if (REDIRECT_STATUSES.has(status) && !isAnswer(trace, status)) {
        const location = headers.location;
        const refused = refusal(trace, Array.isArray(location) ? location[0] : location);
        if (refused !== undefined) return controller.abort(refused);
        trace.followed++;
        trace.onHop();
      }
      handler.onResponseStart?.(controller, status, headers, message);
    },
  });
};
