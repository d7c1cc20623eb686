import type * as Redacted from "effect/Redacted";
import type { Dispatcher } from "undici";
import type { z } from "zod";

/** A secret the HTTP client must never reveal: keep it `Redacted`; a plain string is accepted too. */
export type Secret = Redacted.Redacted<string> | string;

/** Response headers as undici gives them: lower-case names; `set-cookie` and repeats as arrays. */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A query parameter value: `undefined` is skipped, arrays repeat the name, secrets are unwrapped. */
export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string> | Secret;

/** A request header value: `undefined` is skipped; a `Redacted` value is unwrapped and redacted. */
export type HeaderValue = string | Secret | undefined;

/** Settings of one HTTP client (one undici `Agent`, with a keep-alive pool per origin). */
export interface HttpClientOptions {
  /** Time to open a TCP/TLS connection. Default 5000. */
  readonly connectTimeoutMs?: number | undefined;
  /**
   * Time from starting a request (or a redirect hop) to receiving its response headers, connecting
   * included. Default 30000.
   */
  readonly headersTimeoutMs?: number | undefined;
  /** Longest pause while receiving the body (before the first chunk and between chunks). Default 30000. */
  readonly bodyTimeoutMs?: number | undefined;
  /** Largest response body accepted. Default 5 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Name of the upstream service in messages ("openFDA returned HTTP 503"). Default: the host name.
   */
  readonly service?: string | undefined;
  /** Name of the setting holding the API key (`FDA_API_KEY`), named in access-denied suggestions. */
  readonly apiKeyVar?: string | undefined;
  /** Secrets redacted from every failure of every request (added to each request's `secrets`). */
  readonly secrets?: ReadonlyArray<Secret> | undefined;
  /**
   * The undici dispatcher to send through (a `MockAgent`, a `ProxyAgent`, a shared `Agent`). When
   * given, the client does not own it: `close()` leaves it open, and the pool options above
   * (connect timeout, connections, keep-alive) are the dispatcher's own. The client's redirects and
   * decompression are composed on it as on its own agent.
   */
  readonly dispatcher?: Dispatcher | undefined;
  /**
   * undici interceptors composed between the client's decompression and its redirects: each sees
   * every hop of a request (a redirect's too) with its body decoded, and may answer it itself. The
   * extension point of record/replay (`@quiver/record`'s cassette interceptor).
   */
  readonly interceptors?: ReadonlyArray<Dispatcher.DispatcherComposeInterceptor> | undefined;
}

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** One request. Failures are thrown as `ToolFailure`; see {@link HttpClient.request}. */
export interface HttpRequestOptions {
  /** Default `GET`. */
  readonly method?: HttpMethod | undefined;
  /**
   * The `http:` or `https:` URL, absolute or relative to `baseUrl`; may already carry a query string.
   */
  readonly url: string | URL;
  /**
   * Base of a relative `url`: joined with exactly one `/` between them, its path kept
   * (`https://h/api/` + `v1/x` → `https://h/api/v1/x`); ignored for an absolute `url`.
   */
  readonly baseUrl?: string | undefined;
  /**
   * The URL's path as a template (`/drug/{endpoint}.json`), named in the request's span as
   * `url.template` when a tracer is installed. Without it the span names only the method and host:
   * a path may hold an identifier or a key.
   */
  readonly route?: string | undefined;
  /** Query parameters appended to the URL. */
  readonly query?: Readonly<Record<string, QueryValue>> | undefined;
  /** Request headers (names are case-insensitive). */
  readonly headers?: Readonly<Record<string, HeaderValue>> | undefined;
  /**
   * A token sent as `authorization: Bearer <token>` and redacted from every failure (no `secrets`
   * entry needed); nothing is sent when undefined. An `authorization` header wins over it.
   */
  readonly bearer?: Secret | undefined;
  /** Sent as a JSON body with `content-type: application/json`. */
  readonly json?: unknown;
  /** Sent as the body as is (set `content-type` yourself). Ignored when `json` is given. */
  readonly body?: string | undefined;
  /**
   * Cancels the request. The promise then rejects with `signal.reason` (a `DOMException` named
   * `AbortError` unless the caller gave another reason), not with a `ToolFailure`.
   */
  readonly signal?: AbortSignal | undefined;
  /** Values that must never appear in a failure (API keys, tokens). `Redacted` header/query values are added automatically. */
  readonly secrets?: ReadonlyArray<Secret> | undefined;
  /** Deadline for the whole request, redirects and body included; rejects with a `timeout` failure. */
  readonly timeoutMs?: number | undefined;
  /**
   * Statuses the caller handles itself (e.g. `[404]`): returned as a response instead of thrown.
   * 2xx statuses are always returned. With a redirect status among them the request follows no
   * redirect.
   */
  readonly acceptStatus?: ReadonlyArray<number> | undefined;
  /** Longest wait for this request's response headers (a slow model server). Default: the client's. */
  readonly headersTimeoutMs?: number | undefined;
  /** Longest pause while receiving this request's body. Default: the client's. */
  readonly bodyTimeoutMs?: number | undefined;
  /** Largest body accepted for this request. Default: the client's `maxBodyBytes`. */
  readonly maxBodyBytes?: number | undefined;
  /** Sent as `x-request-id`. */
  readonly requestId?: string | undefined;
  /** Overrides the client's `apiKeyVar` for this request. */
  readonly apiKeyVar?: string | undefined;
}

/** A JSON request: the response is parsed and, when a schema is given, validated. */
export interface HttpJsonOptions<T = unknown> extends Omit<HttpRequestOptions, "acceptStatus"> {
  /** Validates the parsed body; a mismatch is an `upstream` failure (not retryable). */
  readonly schema?: z.ZodType<T> | undefined;
}

/** A response whose body has been read in full (the socket is back in the pool). */
export interface HttpResponse {
  readonly status: number;
  readonly headers: HttpHeaders;
  /** The final URL (after redirects), with credentials masked. */
  readonly url: string;
  /**
   * The body as text, as fetch's `text()` gives it: gzip/deflate/br/zstd undone, decoded with the charset
   * of `Content-Type` (UTF-8 by default), a leading byte-order mark dropped.
   */
  readonly body: string;
  /** A header's value (case-insensitive); repeated headers are joined with `", "`. */
  header(name: string): string | undefined;
  /**
   * Parses the body as JSON and validates it with `schema` when given. Throws an `upstream`
   * `ToolFailure` for an HTML page, invalid JSON (retryable) or a schema mismatch (not retryable).
   */
  json<T = unknown>(schema?: z.ZodType<T>): T;
}

/** The shared HTTP client for plugins: pooling, keep-alive, limits, status → failure kind, redaction. */
export interface HttpClient {
  /**
   * Sends a request and reads the whole body. Resolves for 2xx and `acceptStatus`; throws a
   * `ToolFailure` for any other status, network failure, timeout or oversized body.
   */
  request(options: HttpRequestOptions): Promise<HttpResponse>;
  /** Sends a request and returns its JSON body, validated with `schema` when given. */
  json<T = unknown>(options: HttpJsonOptions<T>): Promise<T>;
  /** Closes the client's own agent (waits for in-flight requests); a no-op for an injected dispatcher. */
  close(): Promise<void>;
  /**
   * Runs one attempt of a tool's `run` with the call its requests belong to made known to the
   * client, and returns what `run` returned. The runtime calls it when present; plain clients leave
   * it out. The cassette client of `@quiver/record` uses it to record and replay per call.
   */
  withToolCall?<T>(call: ToolCallInfo, run: () => T): T;
}

/**
 * The tool call an HTTP client's requests belong to. The runtime hands it to
 * {@link HttpClient.withToolCall} around each attempt of a tool's `run`.
 */
export interface ToolCallInfo {
  /** The tool's registered name. */
  readonly tool: string;
  /** The plugin id. */
  readonly plugin: string;
  /** The call id (the same for every attempt of one call). */
  readonly callId: string;
  /** The validated input (session values injected). */
  readonly input: unknown;
  /** The authenticated caller, if any. */
  readonly principal?: string | undefined;
  /** The plugin's secrets (API keys), never to be written anywhere. */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>;
}

/**
 * One request of the client as its interceptors see it go: the hop it is at, its last status, the
 * codings its body came in, and its headers / body-idle timers. Handed down with the dispatch
 * options, so every hop of a redirect shares it.
 */
export interface HopTrace {
  /** The URL and method of the current hop. */
  url: URL;
  method: string;
  /** The status of the last response, if one came. */
  status: number | undefined;
  /** The service name used in messages (the host when none was configured). */
  readonly service: string;
  /** Redacts the request's secrets from a text (a `Redactor`). */
  readonly redact: (text: string) => string;
  /** The content codings of the last response, as applied (`identity` dropped). */
  codings: string[];
  /** Bytes of the last response as received, before decoding. */
  rawBytes: number;
  /** The URLs of the hops so far (a redirect back to one is a loop), and how many redirects were followed. */
  readonly visited: Set<string>;
  followed: number;
  /** Statuses the caller takes as answers (a redirect among them is not followed). */
  readonly accepted: ReadonlySet<number>;
  /** Longest wait for a hop's response headers, connecting included. */
  readonly headersTimeoutMs: number;
  /** Longest pause while its body arrives. */
  readonly bodyTimeoutMs: number;
  /** Aborts the request (its signal) with a timer's error. */
  readonly abort: (error: Error) => void;
  /** The running headers or body-idle timer (the client clears it when the request is over). */
  timer: NodeJS.Timeout | undefined;
}
