import type { Dispatcher } from "undici";
import { UnsupportedEncodingError } from "./decode-body.js";

/** The content codings undici's `decompress` interceptor undoes. */
const DECODABLE: ReadonlySet<string> = new Set(["gzip", "x-gzip", "deflate", "br", "zstd"]);

/** Most codings stacked on one body (undici's bound too, against resource exhaustion). */
const MAX_CODINGS = 5;

/**
 * What the client's interceptors note about one request as it goes (the hop it is at, its last
 * status, the codings its body came in), for the messages of its failures. Handed down with the
 * dispatch options, so every hop of a redirect shares it.
 */
export interface HopTrace {
  /** The URL and method of the current hop. */
  url: URL;
  method: string;
  /** The status of the last response, if one came. */
  status: number | undefined;
  /** The content codings of the last response, as applied (`identity` dropped). */
  codings: string[];
  /** Bytes of the last response as received, before decoding. */
  rawBytes: number;
  /** The `Location` of a redirect the caller takes as an answer (held back from undici's `redirect`). */
  location: string | undefined;
  /** Redirects followed so far. */
  followed: number;
  /** Statuses the caller takes as answers (a redirect among them is not followed). */
  readonly accepted: ReadonlySet<number>;
  /** Called when a redirect is followed: the next hop starts (its headers timer restarts). */
  readonly onHop: () => void;
}

/** The dispatch options of a request of the client: undici's, and the request's trace. */
export type TracedOptions = Dispatcher.DispatchOptions & { readonly quiverTrace?: HopTrace };

/** The trace of a request, when it is one of the client's. */
export const traceOf = (opts: Dispatcher.DispatchOptions): HopTrace | undefined =>
  (opts as TracedOptions).quiverTrace;

/** The codings of a `Content-Encoding` header, in the order they were applied (`identity` dropped). */
const codingsOf = (header: string | string[] | undefined): string[] =>
  (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");

/** Whether the request takes `status` as an answer (2xx or accepted). */
export const isAnswer = (trace: HopTrace, status: number): boolean =>
  (status >= 200 && status < 300) || trace.accepted.has(status);

/**
 * Interceptor under undici's `decompress`: notes each response's status and codings on the trace
 * and refuses an answer in a coding `decompress` would pass on undecoded (undici has no such check).
 */
export const traceCodings: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  const trace = traceOf(opts);
  if (trace === undefined) return dispatch(opts, handler);
  return dispatch(opts, {
    ...forward(handler),
    onResponseStart: (controller, status, headers, message) => {
      const codings = codingsOf(headers["content-encoding"]);
      trace.status = status;
      trace.codings = codings;
      trace.rawBytes = 0;
      const bodyless = opts.method === "HEAD" || status === 204 || status === 304;
      const unknown =
        codings.length > MAX_CODINGS ? codings.join(", ") : codings.find((c) => !DECODABLE.has(c));
      if (bodyless || unknown === undefined)
        return handler.onResponseStart?.(controller, status, headers, message);
      if (isAnswer(trace, status)) return controller.abort(new UnsupportedEncodingError(unknown));
      // An error page in a coding we cannot decode: read as is, its status still says what happened.
      const { "content-encoding": _, ...rest } = headers;
      trace.codings = [];
      handler.onResponseStart?.(controller, status, rest, message);
    },
    onResponseData: (controller, chunk) => {
      trace.rawBytes += chunk.length;
      handler.onResponseData?.(controller, chunk);
    },
  });
};

/** A handler passing every event on to `handler` (to override some of them). */
export const forward = (handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler => ({
  onRequestStart: (c, context) => handler.onRequestStart?.(c, context),
  onRequestUpgrade: (c, s, h, socket) => handler.onRequestUpgrade?.(c, s, h, socket),
  onResponseStart: (c, s, h, m) => handler.onResponseStart?.(c, s, h, m),
  onResponseData: (c, chunk) => handler.onResponseData?.(c, chunk),
  onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
  onResponseError: (c, error) => handler.onResponseError?.(c, error),
});
