import type { Readable } from "node:stream";
import type { Agent, Dispatcher } from "undici";
import { buildHeaders, buildUrl, collectSecrets } from "./build-request.js";
import { ACCEPT_ENCODING } from "./decode-body.js";
import { type HopTrace, type TracedOptions, traceCodings } from "./hop-trace.js";
import { type Exchange, toResponse } from "./http-response.js";
import { loadUndici } from "./load-undici.js";
import { readResponse } from "./read-response.js";
import { makeRedactor, type Redactor } from "./redact.js";
import { guardRedirects, MAX_REDIRECTS } from "./redirect.js";
import { requestFailure } from "./request-failure.js";
import { RequestLifetime } from "./request-lifetime.js";
import { requestSpan } from "./request-span.js";
import type { HttpClient, HttpClientOptions, HttpHeaders, HttpRequestOptions } from "./types.js";
import { DEFAULT_USER_AGENT } from "./user-agent.js";

export type {
  HttpClient,
  HttpClientOptions,
  HttpJsonOptions,
  HttpRequestOptions,
  HttpResponse,
} from "./types.js";

/** Defaults of {@link createHttpClient}. */
export const HTTP_CLIENT_DEFAULTS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  maxBodyBytes: 5 * 1024 * 1024,
  connectionsPerOrigin: 16,
  keepAliveMs: 10_000,
} as const;

/** The redaction of one request, and whether it carried a credential (for access-denied hints). */
interface Secrets {
  readonly redact: Redactor;
  readonly sentCredentials: boolean;
}

/** A request's method, headers and body as first sent (a redirect may change them: undici's `redirect`). */
const requestOf = (opts: HttpRequestOptions, accept: string, userAgent: string) => {
  const headers: Record<string, string> = {
    "user-agent": userAgent,
    accept,
    "accept-encoding": ACCEPT_ENCODING,
    ...(opts.requestId === undefined ? {} : { "x-request-id": opts.requestId }),
    ...buildHeaders(opts),
  };
  const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.body;
  if (opts.json !== undefined) headers["content-type"] ??= "application/json";
  const method: string = opts.method ?? "GET";
  return { method, headers, body };
};

/**
 * Creates the shared HTTP client plugins use to reach their upstreams: one undici `Agent` with a
 * keep-alive pool per origin, connect/headers/body timeouts, a body-size limit (on the decoded body),
 * same-origin redirects (at most 3; undici's `redirect` and `decompress` interceptors), and failures thrown as `ToolFailure` with the right kind
 * (status → kind, network errors → `unavailable`/`timeout`), `status`, `retryAfterMs`, and every
 * secret redacted from messages. Create one per plugin (or per host) and `close()` it on dispose.
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
  const connectTimeoutMs = options.connectTimeoutMs ?? HTTP_CLIENT_DEFAULTS.connectTimeoutMs;
  const clientHeadersTimeoutMs = options.headersTimeoutMs ?? HTTP_CLIENT_DEFAULTS.headersTimeoutMs;
  const clientBodyTimeoutMs = options.bodyTimeoutMs ?? HTTP_CLIENT_DEFAULTS.bodyTimeoutMs;
  const defaultMaxBodyBytes = options.maxBodyBytes ?? HTTP_CLIENT_DEFAULTS.maxBodyBytes;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const clientSecrets = options.secrets ?? [];

  // The client's own Agent, and the interceptors composed on it (or on the given dispatcher), are
  // made at the first request, with undici itself: see `loadUndici`.
  let ownAgent: Agent | undefined;
  let made: Promise<Dispatcher> | undefined;
  const dispatcherOf = (): Promise<Dispatcher> => {
    made ??= loadUndici().then(({ Agent, interceptors }) => {
      if (options.dispatcher === undefined) {
        ownAgent = new Agent({
          connect: { timeout: connectTimeoutMs },
          headersTimeout: clientHeadersTimeoutMs,
          bodyTimeout: clientBodyTimeoutMs,
          keepAliveTimeout: options.keepAliveMs ?? HTTP_CLIENT_DEFAULTS.keepAliveMs,
          connections: options.connectionsPerOrigin ?? HTTP_CLIENT_DEFAULTS.connectionsPerOrigin,
        });
      }
      const base = options.dispatcher ?? ownAgent!;
      // Nearest the network first: codings noted, bodies decoded (error pages too, for their
      // message), the caller's interceptors, redirects checked (same origin), then followed.
      return base.compose(
        traceCodings,
        interceptors.decompress({ skipErrorResponses: false }),
        ...(options.interceptors ?? []),
        guardRedirects,
        interceptors.redirect({ maxRedirections: MAX_REDIRECTS }),
      );
    });
    return made;
  };

  /**
   * One request: sent through the composed dispatcher (which follows its redirects and decodes its
   * body), its response read (`readResponse`); any failure mapped by `requestFailure`.
   */
  const send = async (opts: HttpRequestOptions, accept: string, secrets: Secrets): Promise<Exchange> => {
    const { redact } = secrets;
    const url = buildUrl(opts, redact);
    const { method, headers, body } = requestOf(opts, accept, userAgent);
    const service = options.service ?? url.host;
    const headersTimeoutMs = opts.headersTimeoutMs ?? clientHeadersTimeoutMs;
    const bodyTimeoutMs = opts.bodyTimeoutMs ?? clientBodyTimeoutMs;
    const accepted = new Set(opts.acceptStatus ?? []);
    if (opts.signal?.aborted) throw opts.signal.reason;
    const undici = await loadUndici();
    const dispatcher = await dispatcherOf();
    const lifetime = new RequestLifetime(opts.signal, opts.timeoutMs, undici.errors);
    const trace: HopTrace = {
      url,
      method,
      status: undefined,
      codings: [],
      rawBytes: 0,
      location: undefined,
      followed: 0,
      accepted,
      onHop: () => lifetime.awaitHeaders(headersTimeoutMs),
    };
    // Inside a traced attempt: a span for the request, named upstream by its `traceparent`.
    const span = requestSpan(opts, url);
    if (span) Object.assign(headers, span.headers);
    try {
      lifetime.awaitHeaders(headersTimeoutMs);
      const traced: Pick<TracedOptions, "quiverTrace"> = { quiverTrace: trace }; // read by hop-trace.ts
      const response = await undici.request(url, {
        dispatcher,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        signal: lifetime.signal,
        headersTimeout: headersTimeoutMs,
        bodyTimeout: bodyTimeoutMs,
        ...traced,
      });
      const status = response.statusCode;
      const held = trace.location === undefined ? {} : { location: trace.location };
      const responseHeaders = { ...response.headers, ...held } as HttpHeaders;
      lifetime.awaitBody(bodyTimeoutMs);
      const bytes = await readResponse({
        status,
        headers: responseHeaders,
        body: response.body as Readable,
        trace,
        service,
        maxBodyBytes: opts.maxBodyBytes ?? defaultMaxBodyBytes,
        lifetime,
        sentCredentials: secrets.sentCredentials,
        apiKeyVar: opts.apiKeyVar ?? options.apiKeyVar,
        redact,
      });
      span?.succeeded(status);
      return { method: trace.method, service, status, headers: responseHeaders, url: trace.url, body: bytes };
    } catch (error) {
      const failure = requestFailure(error, lifetime.cause(), {
        service,
        method: trace.method,
        url: trace.url,
        status: trace.status,
        timeoutMs: opts.timeoutMs,
        connectTimeoutMs,
        headersTimeoutMs,
        bodyTimeoutMs,
        redact,
      });
      span?.failed(failure);
      throw failure;
    } finally {
      lifetime.dispose();
    }
  };

  const secretsOf = (opts: HttpRequestOptions): Secrets => {
    const all = collectSecrets([...clientSecrets, ...(opts.secrets ?? [])], opts);
    return { redact: makeRedactor(all), sentCredentials: all.length > 0 };
  };

  return {
    request: async (opts) => {
      const secrets = secretsOf(opts);
      return toResponse(await send(opts, "*/*", secrets), secrets.redact);
    },
    json: async (opts) => {
      const secrets = secretsOf(opts);
      return toResponse(await send(opts, "application/json", secrets), secrets.redact).json(opts.schema);
    },
    close: async () => {
      if (ownAgent !== undefined && !ownAgent.closed) await ownAgent.close();
    },
  };
};
