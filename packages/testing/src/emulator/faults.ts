import type { ResponseHeaders } from "./route.js";

/**
 * Wait `ms` milliseconds, then answer normally (the route's response, or the 404).
 *
 * @example
 * up.fault("GET", "/search", { kind: "delay", ms: 500 });
 */
export interface DelayFault {
  readonly kind: "delay";
  /** Milliseconds to wait before responding. */
  readonly ms: number;
}

/**
 * Accept the request and never answer, until the client gives up or the emulator closes.
 *
 * @example
 * up.fault("GET", "/search", { kind: "hang" });
 */
export interface HangFault {
  readonly kind: "hang";
}

/**
 * Send the headers of the normal response at once, then dribble its body in small chunks.
 *
 * @example
 * up.fault("GET", "/search", { kind: "slowBody", chunkBytes: 4, intervalMs: 100 });
 */
export interface SlowBodyFault {
  readonly kind: "slowBody";
  /** Bytes per chunk (default 8). */
  readonly chunkBytes?: number;
  /** Pause between chunks in milliseconds (default 50). */
  readonly intervalMs?: number;
}

/**
 * When a {@link ResetFault} drops the connection: `"beforeHeaders"` sends a TCP reset without any
 * response; `"afterHeaders"` sends the normal headers (with the body's `Content-Length`), then a TCP
 * reset; `"midBody"` sends the headers and half of the normal body, then closes the socket.
 */
export type ResetWhen = "beforeHeaders" | "afterHeaders" | "midBody";

/**
 * Drop the connection, by default before any response (see {@link ResetWhen}).
 *
 * @example
 * up.fault("POST", "/chat/completions", { kind: "reset" }, { times: 1 });
 * up.fault("GET", "/search", { kind: "reset", when: "afterHeaders" });
 */
export interface ResetFault {
  readonly kind: "reset";
  /** When to drop the connection (default `"beforeHeaders"`). */
  readonly when?: ResetWhen;
  /** The older name of `when` (`when` wins when both are given). */
  readonly phase?: ResetWhen;
}

/**
 * Answer with any status code, for rate limits and server errors. The body defaults to
 * `{ "error": "<reason phrase>" }`; a string body is sent as text, anything else as JSON.
 *
 * @example
 * up.fault("GET", "/drug/label.json", { kind: "status", status: 429, retryAfter: 1 });
 * up.fault("GET", "/drug/label.json", { kind: "status", status: 503, retryAfter: new Date(Date.now() + 2000) });
 */
export interface StatusFault {
  readonly kind: "status";
  /** The HTTP status code. */
  readonly status: number;
  /** The body: a string is sent as text/plain, any other value as JSON. */
  readonly body?: unknown;
  /** Extra headers (these win over the defaults). */
  readonly headers?: ResponseHeaders;
  /** Sets `Retry-After`: seconds as a number, a Date as an HTTP-date, or a raw string. */
  readonly retryAfter?: number | Date | string;
}

/**
 * Answer with a JSON content type and a body that does not parse.
 *
 * @example
 * up.fault("GET", "/search", { kind: "invalidJson" });
 */
export interface InvalidJsonFault {
  readonly kind: "invalidJson";
  /** The status code (default 200). */
  readonly status?: number;
  /** The broken body (default a truncated object). */
  readonly body?: string;
}

/**
 * Answer with an HTML error page and `text/html`, as proxies and gateways do.
 *
 * @example
 * up.fault("GET", "/search", { kind: "htmlError", status: 502 });
 */
export interface HtmlErrorFault {
  readonly kind: "htmlError";
  /** The status code (default 200, the nastiest case: success status, error page). */
  readonly status?: number;
  /** The HTML (default a small "Service Unavailable" page). */
  readonly body?: string;
}

/**
 * Stream a huge body: valid JSON of exactly `bytes` bytes (when `bytes` >= 12), sent in 64 KiB
 * chunks with back-pressure, so a client's body-size limit can be tested.
 *
 * @example
 * up.fault("GET", "/search", { kind: "oversized", bytes: 5 * 1024 * 1024, contentLength: true });
 */
export interface OversizedFault {
  readonly kind: "oversized";
  /** Body size in bytes (default 10 MiB). */
  readonly bytes?: number;
  /** Content type (default `application/json`). */
  readonly contentType?: string;
  /** Declare `Content-Length` up front (default false: chunked, the client must count). */
  readonly contentLength?: boolean;
}

/**
 * Send the normal body (or `body`) under a content type the client does not expect.
 *
 * @example
 * up.fault("GET", "/search", { kind: "wrongContentType", contentType: "application/xml" });
 */
export interface WrongContentTypeFault {
  readonly kind: "wrongContentType";
  /** The content type to send (default `text/plain`). */
  readonly contentType?: string;
  /** Replace the body too (default: the route's body, unchanged). */
  readonly body?: string;
}

/**
 * Send the route's normal answer compressed, with `Content-Encoding` set, as real servers do when the
 * client accepts it (`deflate` is the zlib format HTTP means by it).
 *
 * @example
 * up.fault("GET", "/search", { kind: "encoded", encoding: "gzip" });
 */
export interface EncodedFault {
  readonly kind: "encoded";
  /** The content coding. */
  readonly encoding: "gzip" | "deflate" | "br";
}

/**
 * Send the route's normal answer with a UTF-8 byte-order mark (EF BB BF) before the body.
 *
 * @example
 * up.fault("GET", "/search", { kind: "bom" });
 */
export interface BomFault {
  readonly kind: "bom";
}

/**
 * Answer with a redirect to `location` (another host, a link-local address such as
 * `http://169.254.169.254/`, or a path on the emulator).
 *
 * @example
 * up.fault("GET", "/search", { kind: "redirect", location: "http://169.254.169.254/latest/meta-data/" });
 */
export interface RedirectFault {
  readonly kind: "redirect";
  /** The `Location` header. */
  readonly location: string;
  /** The status (default 302). */
  readonly status?: 301 | 302 | 307 | 308;
}

/**
 * Send the normal headers (declaring the whole body's `Content-Length`) and the first `afterBytes`
 * bytes of the body, then never send more, until the client gives up or the emulator closes.
 *
 * @example
 * up.fault("GET", "/search", { kind: "stall", afterBytes: 10 });
 */
export interface StallFault {
  readonly kind: "stall";
  /** Bytes of the body sent before stalling (default half of it, rounded down). */
  readonly afterBytes?: number;
}

/**
 * Accept the connection and the request and never send headers: the same as {@link HangFault},
 * under the name a headers timeout is tested with.
 *
 * @example
 * up.fault("GET", "/search", { kind: "headersNever" });
 */
export interface HeadersNeverFault {
  readonly kind: "headersNever";
}

/**
 * Answer normally but with response headers of about `bytes` bytes in total (one `x-padding`
 * header), beyond the 16 KiB undici and Node accept by default.
 *
 * @example
 * up.fault("GET", "/search", { kind: "oversizedHeaders", bytes: 64 * 1024 });
 */
export interface OversizedHeadersFault {
  readonly kind: "oversizedHeaders";
  /** Size of the padding header in bytes (default 64 KiB). */
  readonly bytes?: number;
}

/**
 * A decompression bomb: a small gzip body (`Content-Encoding: gzip`, JSON content type) that
 * decodes to `bytes` bytes of valid JSON, far beyond any sane body limit.
 *
 * @example
 * up.fault("GET", "/search", { kind: "bomb" }); // about 64 KiB on the wire, 64 MiB decoded
 */
export interface BombFault {
  readonly kind: "bomb";
  /**
   * Decoded size ÷ size on the wire to aim for (default and maximum about 1000, what gzip reaches on
   * repeated bytes); lower ratios mix in incompressible bytes. Approximate.
   */
  readonly ratio?: number;
  /** The decoded size in bytes (default 64 MiB). */
  readonly bytes?: number;
}

/**
 * Answer HTTP 200 (or `status`) with a JSON error object, as some APIs do:
 * `{"error":{"message":"...","code":...}}`.
 *
 * @example
 * up.fault("POST", "/query", { kind: "errorObject", message: "index not loaded", code: 500 });
 */
export interface ErrorObjectFault {
  readonly kind: "errorObject";
  /** The status code (default 200). */
  readonly status?: number;
  /** `error.message` (default "internal error (emulated)"). */
  readonly message?: string;
  /** `error.code` (default 500). */
  readonly code?: number | string;
}

/**
 * Answer with an empty body (`Content-Length: 0`) under a JSON content type.
 *
 * @example
 * up.fault("GET", "/search", { kind: "emptyBody" });
 */
export interface EmptyBodyFault {
  readonly kind: "emptyBody";
  /** The status code (default 200). */
  readonly status?: number;
}

/**
 * Every failure the emulator can inject; see the `kind` of each member.
 *
 * Use it to type tables of faults in parameterised tests.
 *
 * @example
 * const faults: Fault[] = [{ kind: "hang" }, { kind: "status", status: 503 }, { kind: "invalidJson" }];
 * for (const f of faults) up.fault("GET", "/search", f, { times: 1 });
 */
export type Fault =
  | DelayFault
  | HangFault
  | SlowBodyFault
  | ResetFault
  | StatusFault
  | InvalidJsonFault
  | HtmlErrorFault
  | OversizedFault
  | WrongContentTypeFault
  | EncodedFault
  | BomFault
  | RedirectFault
  | StallFault
  | HeadersNeverFault
  | OversizedHeadersFault
  | BombFault
  | ErrorObjectFault
  | EmptyBodyFault;

/** The names of the fault kinds, e.g. `"hang"`. */
export type FaultKind = Fault["kind"];

/** The fault kinds the default fault matrix runs (`FAULT_KINDS`), e.g. `"hang"`. */
export type MatrixFaultKind =
  | "delay"
  | "hang"
  | "slowBody"
  | "reset"
  | "status"
  | "invalidJson"
  | "htmlError"
  | "oversized"
  | "wrongContentType";

/**
 * The fault kinds the default fault matrix runs (`describeFaultMatrix`, `MATRIX_FAULTS`), in a fixed
 * order. Every kind the emulator offers is in `ALL_FAULT_KINDS`.
 *
 * @example
 * it.each(FAULT_KINDS)("survives %s", async (kind) => {
 *   up.fault("GET", "/search", MATRIX_FAULTS[kind]);
 * });
 */
export const FAULT_KINDS: ReadonlyArray<MatrixFaultKind> = [
  "delay",
  "hang",
  "slowBody",
  "reset",
  "status",
  "invalidJson",
  "htmlError",
  "oversized",
  "wrongContentType",
];

/**
 * Every fault kind the emulator offers, in a fixed order: `FAULT_KINDS`, then the kinds that need
 * parameters or that a client is expected to decode (encodings, BOM, redirects, stalls, oversized
 * headers, bombs, error objects, empty bodies).
 *
 * @example
 * expect(ALL_FAULT_KINDS).toContain("bomb");
 */
export const ALL_FAULT_KINDS: ReadonlyArray<FaultKind> = [
  ...FAULT_KINDS,
  "encoded",
  "bom",
  "redirect",
  "stall",
  "headersNever",
  "oversizedHeaders",
  "bomb",
  "errorObject",
  "emptyBody",
];

/**
 * How many matching requests a fault applies to.
 *
 * @example
 * up.fault("GET", "/search", { kind: "status", status: 503 }, { times: 2 }); // then normal answers
 */
export interface FaultOptions {
  /** Apply to the next `times` matching requests, then expire (default: every request until cleared). */
  readonly times?: number;
}

/**
 * A registered fault, returned by `fault()`.
 *
 * Use `hits` to assert that the fault fired (for example that a retry happened) and `remove()`
 * to lift it early.
 *
 * @example
 * const f = up.fault("GET", "/search", { kind: "status", status: 503 }, { times: 1 });
 * await callTool();
 * expect(f.hits).toBe(1);
 */
export interface FaultHandle {
  /** The injected fault. */
  readonly fault: Fault;
  /** How many requests this fault has been applied to. */
  readonly hits: number;
  /** How many more requests it will apply to (`Infinity` when unlimited, 0 once expired or removed). */
  readonly remaining: number;
  /** Unregisters the fault. */
  remove(): void;
}
