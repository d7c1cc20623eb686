import type { IncomingHttpHeaders } from "node:http";

/**
 * How a route or fault picks its path: a string matches the path exactly (query string ignored,
 * percent-encoding normalised), a RegExp is tested against the raw path.
 *
 * Use a RegExp when one route serves a family of paths, such as `/api/prediction/:accession`.
 *
 * @example
 * const exact: PathPattern = "/api/v2/libs/search";
 * const family: PathPattern = /^\/api\/prediction\/(\w+)$/;
 */
export type PathPattern = string | RegExp;

/**
 * One request as the emulator received and recorded it.
 *
 * Use it to assert what a plugin sent upstream: method, path, query, headers and body.
 *
 * @example
 * const [sent] = up.requestsTo("POST", "/chat/completions");
 * expect(sent?.headers.authorization).toBe("Bearer test-key");
 * expect(sent?.json).toMatchObject({ model: "gpt-4o-mini" });
 */
export interface RecordedRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path as sent, without the query string (not percent-decoded). */
  readonly path: string;
  /** The parsed query string. */
  readonly query: URLSearchParams;
  /** Request headers, names in lower case (Node's `IncomingHttpHeaders`). */
  readonly headers: Readonly<IncomingHttpHeaders>;
  /** The request body decoded as UTF-8 ("" when there is none). */
  readonly body: string;
  /** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
  readonly json: unknown;
  /** When the request was received, in milliseconds since the epoch. */
  readonly at: number;
}

/**
 * What a route handler receives: the recorded request plus the path match.
 *
 * Use `match` to read capture groups of a RegExp path; it is `undefined` for string paths.
 *
 * @example
 * up.route("GET", /^\/api\/prediction\/(?<id>\w+)$/, (req) => ({ json: [{ uniprotAccession: req.match?.groups?.id }] }));
 */
export interface EmulatorRequest extends RecordedRequest {
  /** The RegExp match of the path, or `undefined` when the route's path is a string. */
  readonly match: RegExpExecArray | undefined;
}

/** Response header values: a string, a number, or several values for one name. */
export type ResponseHeaders = Readonly<Record<string, string | number | ReadonlyArray<string>>>;

/**
 * A canned response. Give at most one of `json`, `text` or `body`; the content type follows from
 * which one you give (`application/json`, `text/plain; charset=utf-8`, `application/octet-stream`)
 * unless `headers` sets `content-type`.
 *
 * Use it for fixed upstream answers; use a {@link RouteHandler} when the answer depends on the request.
 *
 * @example
 * up.route("GET", "/v1/status", { status: 503, json: { error: "maintenance" }, headers: { "retry-after": "5" } });
 */
export interface EmulatorResponse {
  /** HTTP status code (default 200). */
  readonly status?: number;
  /** Extra response headers. */
  readonly headers?: ResponseHeaders;
  /** A value to serialise as JSON. */
  readonly json?: unknown;
  /** A text body. */
  readonly text?: string;
  /** A raw body. */
  readonly body?: string | Uint8Array;
}

/**
 * Computes a response from the request; may be async. A handler that throws produces a 500 with
 * `{ error: "handler failed", message }` so the test sees the mistake.
 *
 * Use it for upstreams whose answer depends on the input (chat completions, search queries).
 *
 * @example
 * up.route("POST", "/chat/completions", (req) => ({
 *   json: { choices: [{ message: { role: "assistant", content: `echo ${(req.json as any).messages.length}` } }] },
 * }));
 */
export type RouteHandler = (request: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>;

/**
 * Extra conditions a request must meet for a route to answer it.
 *
 * Use `query` to tell apart routes that share a path; use `when` for anything else (body, headers).
 *
 * @example
 * up.route("GET", "/drug/label.json", { json: page2 }, { query: { skip: "10" } });
 * up.route("POST", "/api", { json: gene }, { when: (req) => (req.json as any)?.variables?.gene === "TP53" });
 */
export interface RouteOptions {
  /** Query parameters that must be present with these values (other parameters are allowed). */
  readonly query?: Readonly<Record<string, string>>;
  /** A predicate over the request; the route answers only when it returns true. */
  readonly when?: (request: EmulatorRequest) => boolean;
}

/**
 * A registered route, returned by `route()`.
 *
 * Use `hits` to assert how often an upstream was called and `remove()` to take one route away.
 *
 * @example
 * const search = up.route("GET", "/search", { json: [] });
 * await callTool();
 * expect(search.hits).toBe(1);
 */
export interface Route {
  /** The method this route answers ("*" for any). */
  readonly method: string;
  /** The path pattern this route answers. */
  readonly path: PathPattern;
  /** How many requests this route has answered. */
  readonly hits: number;
  /** Unregisters the route. */
  remove(): void;
}
