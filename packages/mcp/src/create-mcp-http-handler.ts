import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AuthInfo,
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { type Catalog, DEFAULT_SESSION_ID, type DurationInput, toMillis } from "@quiver/core";
import { type CatalogMcpServerOptions, createMcpServer } from "./create-mcp-server.js";
import { tokenGate } from "./internal/bearer-tokens.js";
import { cancelOnDisconnect } from "./internal/cancel-on-disconnect.js";
import {
  type BodyRead,
  readNodeBody,
  readWebBody,
  toWebRequest,
  writeWebResponse,
} from "./internal/node-http.js";
import { identityExtras, principalOf } from "./internal/principal.js";
import { readableSubscriptions } from "./internal/readable-subscriptions.js";

/** Options of the Streamable HTTP handler. */
export interface McpHttpHandlerOptions extends CatalogMcpServerOptions {
  /** The path the handler answers (default "/mcp"); other paths go to `next` or get 404. */
  readonly path?: string;
  /**
   * Hostnames a browser `Origin` may name (port-agnostic, as in the MCP SDK); `"*"` allows any.
   * Default: localhost, 127.0.0.1 and [::1]. A request from another origin gets 403.
   */
  readonly allowedOrigins?: ReadonlyArray<string> | "*";
  /**
   * Hostnames the `Host` header may name; `"*"` allows any. Default: localhost, 127.0.0.1 and
   * [::1], which is right for a server bound to loopback; list your public names when binding wider.
   */
  readonly allowedHosts?: ReadonlyArray<string> | "*";
  /**
   * Bearer tokens and the principal each stands for (`{ "tok-abc": "alice" }`). When set, every
   * request needs `Authorization: Bearer <token>`; an unknown or missing token gets 401.
   */
  readonly tokens?: Readonly<Record<string, string>>;
  /**
   * Authenticates a request in place of `tokens` (an OAuth 2.1 resource server's gate, e.g. the
   * SDK's `requireBearerAuth` over a JWT verifier): the verified auth info, or the refusal to answer
   * (401/403 with its `WWW-Authenticate` challenge). Its `extra.principal`, `extra.groups` and
   * `extra.clientId` reach the tools as `ctx.caller.principal`, `.groups` and `.clientId`.
   */
  readonly authenticate?: (request: Request) => Promise<AuthInfo | Response>;
  /** A session with no request for this long is closed (default "30 minutes"). */
  readonly sessionIdleTimeout?: DurationInput;
  /**
   * Open sessions at most, over all callers (default 1,000). When full, with `tokens` a new session
   * evicts the least recently used session of all, so no caller is locked out; without `tokens` it
   * is refused (503 with `Retry-After`) instead: callers cannot be told apart there (every local
   * process, every client behind one reverse proxy shares an address), so evicting would let any
   * of them close another's session.
   */
  readonly maxSessions?: number;
  /**
   * Open sessions at most per principal, default 100; applies with `tokens` only (without them
   * there is no identity to count by). A principal at its limit that opens another evicts its own
   * least recently used idle session (a session whose call is still streaming goes last).
   */
  readonly maxSessionsPerPrincipal?: number;
  /** Largest POST body in bytes (default 4 MiB). */
  readonly maxRequestBodySize?: number;
  /** Called with errors that do not reach a client (a broken stream, a failed close). */
  readonly onError?: (error: Error) => void;
  /**
   * Serve 2025-era clients without sessions (default false): no `Mcp-Session-Id`, every POST served
   * by a fresh server (progress on its SSE response), a GET stream carrying `tools/list_changed`.
   * Any replica then answers any request, so a load balancer needs no sticky sessions. See
   * {@link createStatelessServing}.
   */
  readonly stateless?: boolean;
}

/** A Streamable HTTP endpoint for a catalog: a node:http handler that also has a web-standard face. */
export interface McpHttpHandler {
  /** Serves a node:http request; requests for other paths go to `next` (or get 404 without it). */
  (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void>;
  /** Serves a web-standard request (for fetch-native runtimes and tests). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Sessions currently open (2025-era clients). */
  readonly sessionCount: () => number;
  /** Closes every session and open stream; in-flight calls are cancelled. */
  readonly close: () => Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly principal: string | undefined;
  /** Whose session limit it counts against: the principal with tokens; none without. */
  readonly owner: string | undefined;
  lastSeen: number;
  /** When it was last used, as a count of uses: orders eviction even for uses within one millisecond. */
  lastUse: number;
  /** Responses of this session still being written (node:http face): a busy session is not idle. */
  busy: number;
}

const jsonRpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });

/**
 * Serves a catalog over MCP Streamable HTTP, for node:http (`http.createServer(handler)`) or any
 * fetch-native runtime (`handler.fetch`).
 *
 * Sessions are stateful for 2025-era clients (protocol 2025-11-25 and earlier, what every shipped
 * client speaks): `initialize` opens a session (`Mcp-Session-Id`), whose server keeps the client's
 * standalone SSE stream for `tools/list_changed`, streams progress on each call's SSE response and
 * aborts a call on `notifications/cancelled`. A session is bound to the principal that opened it.
 * 2026-07-28 clients are served per request by the SDK's `createMcpHandler` (list changes reach
 * them through `subscriptions/listen`).
 *
 * Every request first passes Host and Origin validation (DNS-rebinding protection, localhost by
 * default: foreign Origin → 403) and, when `tokens` is set, bearer authentication (→ 401 with a
 * `WWW-Authenticate` challenge); the token's principal is what tools see as `ctx.caller.principal`.
 *
 * @example
 * const mcp = createMcpHttpHandler(catalog, { tokens: { "tok-abc": "alice" } });
 * http.createServer((req, res) => mcp(req, res, () => api(req, res))).listen(7300, "127.0.0.1");
 */
export const createMcpHttpHandler = (
  catalog: Catalog,
  options: McpHttpHandlerOptions = {},
): McpHttpHandler => {
  const {
    path = "/mcp",
    allowedOrigins = localhostAllowedOrigins(),
    allowedHosts = localhostAllowedHostnames(),
    tokens,
    authenticate,
    sessionIdleTimeout = "30 minutes",
    maxSessions = 1_000,
    maxSessionsPerPrincipal = 100,
    maxRequestBodySize = 4 * 1024 * 1024,
    onError,
    stateless = false,
    ...serverOptions
  } = options;
  const idleMs = toMillis(sessionIdleTimeout);
  const gate = authenticate ?? (tokens ? tokenGate(tokens) : undefined);
  const sessions = new Map<string, Session>();
  const report = (error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error)));

  // 2026-07-28 clients: one server instance per request; list changes go out on the listen bus.
  const modern = createMcpHandler(
    () =>
      createMcpServer(catalog, {
        ...serverOptions,
        notifyListChanged: false,
        advertiseResourceChanges: true,
      }),
    {
      legacy: "reject",
      maxRequestBodySize,
      ...(onError ? { onerror: onError } : {}),
    },
  );
  const unsubscribe = catalog.onChange(() => modern.notify.toolsChanged());
  // Resource changes go out on the same bus (`subscriptions/listen` streams filter by URI).
  const unlisten = catalog.onResourceChange(({ uri }) =>
    uri === undefined ? modern.notify.resourcesChanged() : modern.notify.resourceUpdated(uri),
  );
  const statelessServing = stateless
    ? createStatelessServing(catalog, serverOptions, maxRequestBodySize, report)
    : undefined;

  let uses = 0;
  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.transport.close().catch(report);
    await s.server.close().catch(report);
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) if (now - s.lastSeen > idleMs) void closeSession(id);
    },
    Math.max(1_000, Math.min(idleMs, 60_000)),
  );
  sweep.unref();

  /**
   * The session to evict (of one owner, or of all): the least recently used idle one, else the least
   * recently used busy one. The map keeps insertion order, not use.
   */
  const leastRecentlyUsed = (owner?: string): string | undefined => {
    let oldest: string | undefined;
    let rank = Number.POSITIVE_INFINITY;
    for (const [id, s] of sessions) {
      // Idle sessions rank before busy ones whatever their age.
      const r = s.lastUse + (s.busy > 0 ? Number.MAX_SAFE_INTEGER / 2 : 0);
      if ((owner === undefined || s.owner === owner) && r < rank) {
        oldest = id;
        rank = r;
      }
    }
    return oldest;
  };
  /** Which session a response being written belongs to (node:http face), to count it busy until done. */
  const responseSession = new WeakMap<Response, Session>();

  /**
   * Makes room for one more session of `owner` (a principal; undefined without tokens): its own
   * oldest first, then the oldest of all. Without tokens nothing is evicted: the answer is false
   * when the server is full.
   */
  const makeRoom = async (owner: string | undefined): Promise<boolean> => {
    if (owner === undefined) return sessions.size < maxSessions;
    let mine = 0;
    for (const s of sessions.values()) if (s.owner === owner) mine++;
    if (mine >= maxSessionsPerPrincipal) {
      const id = leastRecentlyUsed(owner);
      if (id) await closeSession(id);
    }
    if (sessions.size >= maxSessions) {
      const id = leastRecentlyUsed();
      if (id) await closeSession(id);
    }
    return true;
  };

  /** Seconds until the idle timeout frees a session (the Retry-After of a refused initialize). */
  const secondsUntilFree = (): number => {
    let first = Number.POSITIVE_INFINITY;
    for (const s of sessions.values()) first = Math.min(first, s.lastSeen + idleMs);
    return Math.max(1, Math.ceil((first - Date.now()) / 1000));
  };

  const openSession = async (
    request: Request,
    authInfo: AuthInfo | undefined,
    parsedBody: unknown,
    principal: string | undefined,
    owner: string | undefined,
  ) => {
    if (!(await makeRoom(owner))) {
      const retryAfter = secondsUntilFree();
      return jsonRpcError(
        503,
        -32000,
        `Too many open sessions: close one (DELETE with its Mcp-Session-Id) or retry in ${retryAfter} s.`,
        { "retry-after": String(retryAfter) },
      );
    }
    const server = createMcpServer(catalog, {
      ...serverOptions,
      ...(principal !== undefined ? { principal } : {}),
    });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, {
          transport,
          server,
          principal,
          owner,
          lastSeen: Date.now(),
          lastUse: ++uses,
          busy: 0,
        });
      },
      onsessionclosed: (id) => {
        void closeSession(id);
      },
      maxRequestBodySize,
    });
    transport.onerror = report;
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody, ...(authInfo ? { authInfo } : {}) });
  };

  /**
   * Answers one request. `readBody` reads a POST body once (from the node stream or the web
   * `Request`); the parsed value is what classification and the transports use, so no layer reads or
   * parses it again.
   */
  const serve = async (
    request: Request,
    pathname: string,
    readBody: () => Promise<BodyRead>,
  ): Promise<Response> => {
    if (pathname !== path) return jsonRpcError(404, -32000, `Not found: the MCP endpoint is ${path}.`);
    const badHost =
      allowedHosts === "*" ? undefined : hostHeaderValidationResponse(request, [...allowedHosts]);
    if (badHost) return badHost;
    const badOrigin =
      allowedOrigins === "*" ? undefined : originValidationResponse(request, [...allowedOrigins]);
    if (badOrigin) return badOrigin;
    let authInfo: AuthInfo | undefined;
    if (gate) {
      const verdict = await gate(request);
      if (verdict instanceof Response) return verdict;
      authInfo = verdict;
    }
    const principal = principalOf(serverOptions, authInfo);

    let parsedBody: unknown;
    if (request.method === "POST") {
      const body = await readBody();
      if (body.tooLarge)
        return jsonRpcError(413, -32600, `Request body larger than ${maxRequestBodySize} bytes.`);
      // Refused as the HTTP API refuses it, rather than parsed with replacement characters.
      if ("notUtf8" in body) return jsonRpcError(400, -32700, "Parse error: the body is not valid UTF-8.");
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return jsonRpcError(400, -32700, "Parse error: the body is not JSON.");
      }
    }
    // Classified from the parsed body: nothing is cloned or read again.
    if (!(await isLegacyRequest(request, parsedBody, { maxRequestBodySize }))) {
      const session = { ...(principal !== undefined ? { principal } : {}), ...identityExtras(authInfo) };
      const listened = await readableSubscriptions(
        parsedBody,
        async (uri) => (await catalog.readResource(uri, { session })).ok,
      );
      return modern.fetch(request, { parsedBody: listened, ...(authInfo ? { authInfo } : {}) });
    }

    if (statelessServing) return statelessServing.serve(request, authInfo, parsedBody);
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = sessions.get(sessionId);
      // A session answers only the principal that opened it; to anyone else it does not exist.
      if (!session || session.principal !== principal) {
        return jsonRpcError(404, -32001, "Session not found: initialize a new session.");
      }
      session.lastSeen = Date.now();
      session.lastUse = ++uses;
      // A client that disconnects without notifications/cancelled still cancels its calls.
      cancelOnDisconnect(request, session.transport, parsedBody, authInfo, report);
      const response = await session.transport.handleRequest(request, {
        ...(parsedBody !== undefined ? { parsedBody } : {}),
        ...(authInfo ? { authInfo } : {}),
      });
      // A POST's response (a call's stream) keeps the session busy; the standalone GET stream does not.
      if (request.method === "POST") responseSession.set(response, session);
      return response;
    }
    const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
    if (request.method === "POST" && messages.some((m) => isInitializeRequest(m))) {
      // Limits count per principal when tokens authenticate callers. Without tokens an address is
      // no identity (local processes, clients behind a proxy share one), so no caller evicts another.
      return openSession(request, authInfo, parsedBody, principal, gate ? (principal ?? "") : undefined);
    }
    return jsonRpcError(
      400,
      -32000,
      "Bad Request: send initialize first, then the Mcp-Session-Id header it returns.",
    );
  };

  const guarded = async (
    request: Request,
    pathname: string,
    readBody: () => Promise<BodyRead>,
  ): Promise<Response> => {
    try {
      return await serve(request, pathname, readBody);
    } catch (error) {
      report(error);
      return jsonRpcError(500, -32603, "Internal server error.");
    }
  };

  const fetch = (request: Request): Promise<Response> =>
    guarded(request, new URL(request.url).pathname, () => readWebBody(request, maxRequestBodySize));

  const handler = async (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> => {
    const raw = req.url ?? "/";
    // The common case (`/mcp`, `/mcp?x`) needs no URL parsing; anything else is normalised by URL.
    const url = raw === path || raw.startsWith(`${path}?`) ? undefined : new URL(raw, "http://localhost");
    const pathname = url ? url.pathname : path;
    if (pathname !== path && next) {
      next();
      return;
    }
    // The body is read straight from the node stream (no web stream) and parsed once in `serve`.
    let response: Response;
    try {
      const request = toWebRequest(req, res, { body: false });
      response = await guarded(request, pathname, () => readNodeBody(req, maxRequestBodySize));
    } catch {
      // Only a request that cannot be expressed as a web Request (a malformed Host header) gets here.
      response = jsonRpcError(400, -32600, "Bad Request: malformed request line or headers.");
    }
    // A session whose response (a call's stream) is being written is busy: evicted only after idle ones.
    const session = responseSession.get(response);
    if (session) session.busy++;
    await writeWebResponse(response, res).catch(report);
    if (session) {
      session.busy--;
      session.lastSeen = Date.now();
      session.lastUse = ++uses;
    }
  };

  return Object.assign(handler, {
    fetch,
    sessionCount: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      unsubscribe();
      unlisten();
      await Promise.all([...sessions.keys()].map(closeSession));
      await statelessServing?.close();
      await modern.close().catch(report);
    },
  });
};

/**
 * 2025-era MCP without sessions, for replicas behind a load balancer: a POST is served by a fresh
 * server and transport (`sessionIdGenerator: undefined`, the MCP SDK's stateless idiom, through its
 * `legacyStatelessFallback`), so progress streams on that POST's SSE response; a GET opens a
 * standalone SSE stream whose server sends `tools/list_changed` when this replica's catalog changes.
 * Nothing outlives a request but the GET streams, so any replica answers any request.
 */
const createStatelessServing = (
  catalog: Catalog,
  serverOptions: CatalogMcpServerOptions,
  maxRequestBodySize: number,
  report: (error: unknown) => void,
) => {
  const post = legacyStatelessFallback(
    // No session to count failures in: each principal's calls count in its default conversation.
    () =>
      createMcpServer(catalog, { ...serverOptions, sessionId: DEFAULT_SESSION_ID, notifyListChanged: false }),
    report,
    { maxRequestBodySize },
  );
  const streams = new Set<{ close: () => Promise<void> }>();
  const listen = async (request: Request, authInfo: AuthInfo | undefined): Promise<Response> => {
    const server = createMcpServer(catalog, serverOptions);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    transport.onerror = report;
    const stream = {
      close: async () => {
        streams.delete(stream);
        await transport.close().catch(report);
        await server.close().catch(report);
      },
    };
    streams.add(stream);
    request.signal.addEventListener("abort", () => void stream.close(), { once: true });
    await server.connect(transport);
    const response = await transport.handleRequest(request, authInfo ? { authInfo } : {});
    if (!response.ok) await stream.close();
    return response;
  };
  return {
    serve: (request: Request, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> =>
      request.method === "GET"
        ? listen(request, authInfo)
        : post(request, {
            ...(parsedBody !== undefined ? { parsedBody } : {}),
            ...(authInfo ? { authInfo } : {}),
          }),
    close: async () => {
      await Promise.all([...streams].map((s) => s.close()));
    },
  };
};
