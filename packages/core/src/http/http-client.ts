import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import pkg from "../../package.json" with { type: "json" };
import { fail } from "../errors.js";
import { ACCEPT_ENCODING, makeDispatcher, REDIRECT_STATUSES } from "./dispatcher.js";
import { readResponse } from "./read-response.js";
import { collectSecrets, makeRedactor, type Redactor, secretValue } from "./redact.js";
import { requestParent, requestSpan } from "./request-span.js";
import { requestFailure } from "./transport-error.js";
import type {
  HopTrace,
  HttpClient,
  HttpClientOptions,
  HttpHeaders,
  HttpRequestOptions,
  HttpResponse,
  Secret,
} from "./types.js";

/** The `User-Agent` of every request. */
const USER_AGENT = `quiver/${pkg.version}`;

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * `url` against `baseUrl`: an absolute `url` (or a `URL`) as is, a relative one joined to the base
 * with exactly one `/` between them, whatever slashes either has; the base's path is kept
 * (`https://h/api/` + `v1/x` → `https://h/api/v1/x`).
 *
 * @example
 * joinUrl("https://api.perplexity.ai/", "/search") // "https://api.perplexity.ai/search"
 */
export const joinUrl = (baseUrl: string | undefined, url: string | URL): string | URL => {
  if (baseUrl === undefined || typeof url !== "string" || ABSOLUTE.test(url)) return url;
  // By hand: WHATWG `new URL(url, base)` drops the base's last path segment and a leading `/` of url.
  return `${baseUrl.replace(/\/+$/, "")}/${url.replace(/^\/+/, "")}`;
};

/**
 * The request URL (joined to `baseUrl`) with `query` appended (`undefined` skipped, arrays
 * repeated, secrets unwrapped). A malformed or non-HTTP URL is an `internal` failure (a bug in the
 * tool, not the input).
 */
const buildUrl = (opts: HttpRequestOptions, redact: Redactor): URL => {
  const url = joinUrl(opts.baseUrl, opts.url);
  const parsed = URL.parse(String(url));
  if (!parsed) throw fail.internal(redact(`Invalid request URL: ${String(url)}`));
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw fail.internal(redact(`Unsupported URL scheme ${parsed.protocol} in ${parsed.href}`));
  }
  for (const [name, value] of Object.entries(opts.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      parsed.searchParams.append(name, typeof item === "object" ? secretValue(item) : String(item));
    }
  }
  return parsed;
};

/**
 * The headers a request is sent with: the client's (user agent, accept, codings, request id), then
 * `bearer` as `authorization: Bearer <token>`, then the request's own (names lower-cased, so an
 * `authorization` among them wins; `undefined` dropped, `Redacted` values unwrapped).
 */
const headersOf = (opts: HttpRequestOptions, accept: string) => {
  const headers: Record<string, string> = {
    "user-agent": USER_AGENT,
    accept,
    "accept-encoding": ACCEPT_ENCODING,
  };
  if (opts.requestId !== undefined) headers["x-request-id"] = opts.requestId;
  if (opts.bearer !== undefined) headers.authorization = `Bearer ${secretValue(opts.bearer)}`;
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = secretValue(value);
  }
  if (opts.json !== undefined) headers["content-type"] ??= "application/json";
  return headers;
};

/**
 * Creates the shared HTTP client plugins use to reach their upstreams: one undici `Agent` with a
 * keep-alive pool per origin, connect/headers/body timeouts, a body-size limit (on the decoded body),
 * same-origin redirects (at most 3; undici's `redirect` and `decompress` interceptors), and failures
 * thrown as `ToolFailure` with the right kind (status → kind, network errors → `unavailable` /
 * `timeout`), `status`, `retryAfterMs`, and every secret redacted from messages. Create one per
 * plugin (or per host) and `close()` it on dispose.
 *
 * Aborting `signal` rejects with `signal.reason` (an `AbortError` `DOMException` by default), not a
 * `ToolFailure`: interruption belongs to the runtime. `timeoutMs` is the client's own deadline and
 * rejects with a `timeout` failure.
 *
 * @example
 * const http = createHttpClient({ service: "openFDA", apiKeyVar: "FDA_API_KEY" })
 * const labels = await http.json({
 *   baseUrl: "https://api.fda.gov",
 *   url: "/drug/label.json",
 *   query: { search: "openfda.brand_name:aspirin", limit: 5, api_key: Redacted.make("key") }, // redacted in every failure
 *   schema: z.object({ results: z.array(z.object({ id: z.string() })) }),
 *   signal,
 * })
 */
export const createHttpClient = (options: HttpClientOptions = {}): HttpClient => {
  const { connectTimeoutMs = 5_000, headersTimeoutMs = 30_000, bodyTimeoutMs = 30_000 } = options;
  let made: ReturnType<typeof makeDispatcher> | undefined;
  const dispatcherOf = () =>
    (made ??= makeDispatcher(options, {
      connect: { timeout: connectTimeoutMs },
      headersTimeout: headersTimeoutMs,
      bodyTimeout: bodyTimeoutMs,
      keepAliveTimeout: 10_000,
      connections: 16,
    }));

  /** One request: sent through the client's dispatcher, its response read, any failure mapped. */
  const send = async (opts: HttpRequestOptions, accept: string): Promise<HttpResponse> => {
    // The request's secrets and their redactor, worked out at their first need (a failure's message,
    // the answer's URL when it is read): a request that succeeds unread never scans for secrets.
    let found: Secret[] | undefined;
    let redactor: Redactor | undefined;
    const secrets = () =>
      (found ??= collectSecrets([...(options.secrets ?? []), ...(opts.secrets ?? [])], opts));
    const redactorOf = () => (redactor ??= makeRedactor(secrets()));
    const redact: Redactor = (text) => redactorOf()(text);
    const url = buildUrl(opts, redact);
    const headers = headersOf(opts, accept);
    const service = options.service ?? url.host;
    if (opts.signal?.aborted) throw opts.signal.reason;
    const { dispatcher } = await dispatcherOf();
    // The request's signal: the caller's, the deadline's, and the one the interceptors' timers abort.
    const own = new AbortController();
    const deadline = opts.timeoutMs === undefined ? [] : [AbortSignal.timeout(opts.timeoutMs)];
    const signal = AbortSignal.any([own.signal, ...(opts.signal ? [opts.signal] : []), ...deadline]);
    const trace: HopTrace = {
      url,
      method: opts.method ?? "GET",
      status: undefined,
      service,
      redact,
      codings: [],
      rawBytes: 0,
      visited: new Set(),
      followed: 0,
      accepted: new Set(opts.acceptStatus ?? []),
      headersTimeoutMs: opts.headersTimeoutMs ?? headersTimeoutMs,
      bodyTimeoutMs: opts.bodyTimeoutMs ?? bodyTimeoutMs,
      abort: (error) => own.abort(error),
      timer: undefined,
    };
    // Inside a traced attempt: a span for the request, named upstream by its `traceparent`.
    const parent = requestParent.getStore();
    const span = parent === undefined ? undefined : requestSpan(parent, opts, url);
    if (span) Object.assign(headers, span.headers);
    const request: Dispatcher.RequestOptions & { quiverTrace: HopTrace; maxRedirections?: number } = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: trace.method as Dispatcher.HttpMethod,
      headers,
      body: opts.json !== undefined ? JSON.stringify(opts.json) : (opts.body ?? null),
      signal,
      headersTimeout: trace.headersTimeoutMs,
      bodyTimeout: trace.bodyTimeoutMs,
      quiverTrace: trace, // read by the interceptors (dispatcher.ts)
    };
    // A request that takes a redirect as an answer follows none (undici's per-request option).
    if ([...trace.accepted].some((status) => REDIRECT_STATUSES.has(status))) request.maxRedirections = 0;
    try {
      const response = await dispatcher.request(request);
      const read = await readResponse({
        status: response.statusCode,
        headers: response.headers as HttpHeaders,
        body: response.body as Readable,
        trace,
        maxBodyBytes: opts.maxBodyBytes ?? options.maxBodyBytes ?? 5 * 1024 * 1024,
        sentCredentials: () => secrets().length > 0,
        apiKeyVar: opts.apiKeyVar ?? options.apiKeyVar,
      });
      span?.succeeded(read.status);
      return read;
    } catch (error) {
      // The caller's abort stays an abort (interruption belongs to the runtime).
      const failure = opts.signal?.aborted
        ? opts.signal.reason
        : requestFailure(signal.aborted ? signal.reason : error, trace, opts.timeoutMs, connectTimeoutMs);
      span?.failed(failure);
      throw failure;
    } finally {
      clearTimeout(trace.timer);
    }
  };

  return {
    request: (opts) => send(opts, "*/*"),
    json: async (opts) => (await send(opts, "application/json")).json(opts.schema),
    close: async () => {
      const agent = made === undefined ? undefined : (await made).ownAgent;
      if (agent !== undefined && !agent.closed) await agent.close();
    },
  };
};
