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
 * Drop the connection. `"beforeHeaders"` (default) sends a TCP reset without any response;
 * `"midBody"` sends the headers and half of the normal body, then closes the socket.
 *
 * @example
 * up.fault("POST", "/chat/completions", { kind: "reset" }, { times: 1 });
 */
export interface ResetFault {
  readonly kind: "reset";
  /** When to drop the connection (default `"beforeHeaders"`). */
  readonly phase?: "beforeHeaders" | "midBody";
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
  | WrongContentTypeFault;

/** The names of the fault kinds, e.g. `"hang"`. */
export type FaultKind = Fault["kind"];

/**
 * Every fault kind, in a fixed order (for parameterised tests and docs).
 *
 * @example
 * it.each(FAULT_KINDS)("survives %s", async (kind) => { ... });
 */
export const FAULT_KINDS: ReadonlyArray<FaultKind> = [
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
