import type { Agent, Dispatcher } from "undici";
import type { z } from "zod";
import { fail } from "../errors.js";
import { buildHeaders, buildUrl, collectSecrets } from "./build-request.js";
import {
  ACCEPT_ENCODING,
  BodyDecodeError,
  bodyText,
  contentCodings,
  UnsupportedEncodingError,
} from "./decode-body.js";
import { parseJsonBody } from "./json-body.js";
import { loadUndici } from "./load-undici.js";
import { BodyTooLargeError, discardBody, readBody } from "./read-body.js";
import { makeRedactor, type Redactor } from "./redact.js";
import { nextRedirect, REDIRECT_STATUSES } from "./redirect.js";
import { RequestLifetime } from "./request-lifetime.js";
import { failureForStatus } from "./status-to-kind.js";
import { failureForTransportError } from "./transport-error.js";
import type {
  HttpClient,
  HttpClientOptions,
  HttpHeaders,
  HttpRequestOptions,
  HttpResponse,
} from "./types.js";
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

/** How much of an error response is read to find the upstream's message. */
const ERROR_BODY_BYTES = 64 * 1024;

const headerValue = (headers: HttpHeaders, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
};

/**
 * Waits one event-loop turn after a body has been read, so undici marks the socket free before the
 * caller's next request: without it a sequential caller finds the socket still busy and the pool
 * opens (and handshakes) a second connection.
 */
const letPoolSettle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The redaction of one request, and whether it carried a credential (for access-denied hints). */
interface Secrets {
  readonly redact: Redactor;
  readonly sentCredentials: boolean;
}

interface Exchange {
  readonly method: string;
  readonly service: string;
  readonly status: number;
  readonly headers: HttpHeaders;
  readonly url: URL;
  readonly body: Buffer;
}

/**
 * Creates the shared HTTP client plugins use to reach their upstreams: one undici `Agent` with a
 * keep-alive pool per origin, connect/headers/body timeouts, a body-size limit, same-origin
 * redirects (at most 3), and failures thrown as `ToolFailure` with the right kind
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
 *   url: "https://api.fda.gov/drug/label.json",
 *   query: { search: "openfda.brand_name:aspirin", limit: 5, api_key: config.apiKey }, // Redacted
 *   schema: LabelResponse,
 *   signal,
 * })
 */
export const createHttpClient = (
  options: HttpClientOptions = {},
  /** Internal: a dispatcher made at the first request (the cassette client's), instead of an Agent. */
  lazyDispatcher?: () => Promise<Dispatcher>,
): HttpClient => {
  const connectTimeoutMs = options.connectTimeoutMs ?? HTTP_CLIENT_DEFAULTS.connectTimeoutMs;
  const clientHeadersTimeoutMs = options.headersTimeoutMs ?? HTTP_CLIENT_DEFAULTS.headersTimeoutMs;
  const clientBodyTimeoutMs = options.bodyTimeoutMs ?? HTTP_CLIENT_DEFAULTS.bodyTimeoutMs;
  const defaultMaxBodyBytes = options.maxBodyBytes ?? HTTP_CLIENT_DEFAULTS.maxBodyBytes;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const clientSecrets = options.secrets ?? [];

  // The client's own Agent (or the dispatcher a wrapper makes) is made at the first request, with
  // undici itself: see `loadUndici`.
  let ownAgent: Agent | undefined;
  let made: Promise<Dispatcher> | undefined;
  const dispatcherOf = (): Promise<Dispatcher> => {
    if (options.dispatcher) return Promise.resolve(options.dispatcher);
    made ??= lazyDispatcher
      ? lazyDispatcher()
      : loadUndici().then(({ Agent }) => {
          ownAgent = new Agent({
            connect: { timeout: connectTimeoutMs },
            headersTimeout: clientHeadersTimeoutMs,
            bodyTimeout: clientBodyTimeoutMs,
            keepAliveTimeout: options.keepAliveMs ?? HTTP_CLIENT_DEFAULTS.keepAliveMs,
            connections: options.connectionsPerOrigin ?? HTTP_CLIENT_DEFAULTS.connectionsPerOrigin,
          });
          return ownAgent;
        });
    return made;
  };

  const send = async (
    opts: HttpRequestOptions,
    defaultAccept: string,
    secrets: Secrets,
  ): Promise<Exchange> => {
    const { redact } = secrets;
    let url = buildUrl(opts.url, opts.query, redact);
    let method: string = opts.method ?? "GET";
    const service = options.service ?? url.host;
    const maxBodyBytes = opts.maxBodyBytes ?? defaultMaxBodyBytes;
    const headersTimeoutMs = opts.headersTimeoutMs ?? clientHeadersTimeoutMs;
    const bodyTimeoutMs = opts.bodyTimeoutMs ?? clientBodyTimeoutMs;
    const accepted = new Set(opts.acceptStatus ?? []);
    const headers: Record<string, string> = {
      "user-agent": userAgent,
      accept: defaultAccept,
      "accept-encoding": ACCEPT_ENCODING,
      ...(opts.requestId === undefined ? {} : { "x-request-id": opts.requestId }),
      ...buildHeaders(opts.headers),
    };
    let body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.body;
    if (opts.json !== undefined) headers["content-type"] ??= "application/json";

    if (opts.signal?.aborted) throw opts.signal.reason;
    const undici = await loadUndici();
    const dispatcher = await dispatcherOf();
    const lifetime = new RequestLifetime(opts.signal, opts.timeoutMs, undici.errors);
    let status: number | undefined;
    try {
      for (let followed = 0; ; followed++) {
        lifetime.awaitHeaders(headersTimeoutMs);
        const response = await undici.request(url, {
          dispatcher,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body ?? null,
          signal: lifetime.signal,
          headersTimeout: headersTimeoutMs,
          bodyTimeout: bodyTimeoutMs,
        });
        status = response.statusCode;
        const responseHeaders = response.headers as HttpHeaders;
        lifetime.awaitBody(bodyTimeoutMs);

        if (REDIRECT_STATUSES.has(status) && !accepted.has(status)) {
          await response.body.dump().catch(() => undefined);
          const location = headerValue(responseHeaders, "location");
          const step = nextRedirect({ status, location, url, method, followed, service, redact });
          url = step.url;
          method = step.method;
          if (step.dropBody) {
            body = undefined;
            delete headers["content-type"];
          }
          continue;
        }

        const bodyless = method === "HEAD" || status === 204 || status === 304;
        const encoding = headerValue(responseHeaders, "content-encoding");
        if (!((status >= 200 && status < 300) || accepted.has(status))) {
          let codings: string[] = [];
          try {
            codings = bodyless ? [] : contentCodings(encoding);
          } catch {
            // An error page in a coding we cannot decode: its status still says what happened.
          }
          const errorBody = await readBody(
            response.body,
            ERROR_BODY_BYTES,
            "truncate",
            () => lifetime.touch(),
            codings,
          ).catch(() => Buffer.alloc(0));
          lifetime.idle();
          await letPoolSettle();
          throw failureForStatus({
            status,
            headers: responseHeaders,
            body: bodyText(errorBody, headerValue(responseHeaders, "content-type")),
            method,
            url: redact(url.href),
            service,
            sentCredentials: secrets.sentCredentials,
            apiKeyVar: opts.apiKeyVar ?? options.apiKeyVar,
            redact,
          });
        }
        let codings: string[];
        try {
          codings = bodyless ? [] : contentCodings(encoding);
        } catch (error) {
          discardBody(response.body);
          throw error;
        }
        const declared = Number(headerValue(responseHeaders, "content-length"));
        if (method !== "HEAD" && Number.isFinite(declared) && declared > maxBodyBytes) {
          discardBody(response.body);
          throw new BodyTooLargeError(maxBodyBytes);
        }
        const bytes = await readBody(response.body, maxBodyBytes, "fail", () => lifetime.touch(), codings);
        lifetime.idle();
        await letPoolSettle();
        return { method, service, status, headers: responseHeaders, url, body: bytes };
      }
    } catch (error) {
      const cause = lifetime.cause();
      if (cause?.by === "caller") throw cause.reason;
      const withStatus = status === undefined ? {} : { status };
      if (cause?.by === "deadline") {
        throw fail.timeout(
          redact(`${service} did not complete ${method} ${url.href} within ${opts.timeoutMs} ms`),
          {
            ...withStatus,
          },
        );
      }
      if (error instanceof BodyTooLargeError) {
        const decoded = error.codings.length > 0;
        throw fail.upstream(
          redact(
            decoded
              ? `${service} sent a ${error.codings.join(", ")}-compressed response that decodes to more than ${error.limit} bytes (the body limit) for ${method} ${url.href}; refused`
              : `${service} sent a response larger than ${error.limit} bytes for ${method} ${url.href}`,
          ),
          {
            retryable: false,
            suggestion: decoded
              ? "Ask for less data (a narrower query, fewer results or a smaller page); if a small request decodes this large, the service is misbehaving: use another source."
              : "Ask for less data: a narrower query, fewer results or a smaller page.",
            ...withStatus,
          },
        );
      }
      if (error instanceof UnsupportedEncodingError) {
        throw fail.upstream(
          redact(
            `${service} sent a body in content-encoding "${error.encoding}", which the client cannot decode (it accepts ${ACCEPT_ENCODING}), for ${method} ${url.href}`,
          ),
          {
            retryable: false,
            suggestion:
              "The service ignores the encodings the client accepts; retrying will not help. Use another source, or report it to the plugin's maintainers.",
            ...withStatus,
          },
        );
      }
      if (error instanceof BodyDecodeError) {
        throw fail.upstream(
          redact(
            `${service} sent a ${error.encoding}-compressed body that does not decode (corrupt or cut short) for ${method} ${url.href}`,
          ),
          {
            retryable: true,
            suggestion: "Try again in a moment; if it keeps failing, the service is sending broken data.",
            ...withStatus,
          },
        );
      }
      throw failureForTransportError({
        error: cause?.by === "timer" ? cause.error : error,
        method,
        url: redact(url.href),
        host: url.host,
        service,
        connectTimeoutMs,
        headersTimeoutMs,
        bodyTimeoutMs,
        status,
        redact,
      });
    } finally {
      lifetime.dispose();
    }
  };

  const secretsOf = (opts: HttpRequestOptions): Secrets => {
    const all = collectSecrets([...clientSecrets, ...(opts.secrets ?? [])], opts.headers, opts.query);
    return { redact: makeRedactor(all), sentCredentials: all.length > 0 };
  };

  const toResponse = (exchange: Exchange, redact: Redactor): HttpResponse => {
    const { method, service } = exchange;
    const text = bodyText(exchange.body, headerValue(exchange.headers, "content-type"));
    const url = redact(exchange.url.href);
    return {
      status: exchange.status,
      headers: exchange.headers,
      url,
      body: text,
      header: (name) => headerValue(exchange.headers, name),
      json: <T>(schema?: z.ZodType<T>) =>
        parseJsonBody<T>({
          body: text,
          contentType: headerValue(exchange.headers, "content-type"),
          status: exchange.status,
          service,
          where: `${method} ${url}`,
          redact,
          schema,
        }),
    };
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
