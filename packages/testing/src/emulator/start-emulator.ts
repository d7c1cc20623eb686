import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { applyFault } from "../internal/apply-fault.js";
import { type PreparedResponse, prepare, send } from "../internal/http.js";
import { methodMatches, pathMatches } from "../internal/match.js";
import type { Fault, FaultHandle, FaultOptions } from "./faults.js";
import type {
  EmulatorRequest,
  EmulatorResponse,
  PathPattern,
  RecordedRequest,
  Route,
  RouteHandler,
  RouteOptions,
} from "./route.js";

/**
 * Options for {@link startEmulator}.
 *
 * @example
 * const up = await startEmulator({ port: 0 });
 */
export interface EmulatorOptions {
  /** TCP port on 127.0.0.1 (default 0: a free port chosen by the OS). */
  readonly port?: number;
}

/**
 * A running upstream emulator: a real HTTP server on 127.0.0.1 with routes, fault injection and a
 * record of every request. Obtain one from {@link startEmulator}.
 *
 * Use it in place of Context7, Perplexity, openFDA, AlphaFold, UniProt, Qdrant or an
 * OpenAI-compatible API: point the plugin's base URL at `url`.
 *
 * @example
 * await using up = await startEmulator();
 * up.route("GET", "/api/v2/libs/search", { json: { results: [] } });
 * up.fault("GET", "/api/v2/libs/search", { kind: "status", status: 429, retryAfter: 1 }, { times: 1 });
 * const plugin = createContext7Plugin({ baseUrl: up.url });
 */
export interface Emulator extends AsyncDisposable {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:51234`. */
  readonly url: string;
  /** The TCP port the server listens on. */
  readonly port: number;
  /** Every request received since start or the last `reset()`, oldest first (a copy). */
  readonly requests: ReadonlyArray<RecordedRequest>;
  /**
   * Registers a route. Method is case-insensitive ("*" for any). When several routes match, the
   * most recently added one answers, so a test can override a default route.
   */
  route(
    method: string,
    path: PathPattern,
    response: EmulatorResponse | RouteHandler,
    options?: RouteOptions,
  ): Route;
  /**
   * Injects a fault for matching requests (whether or not a route exists). Faults are consumed
   * in the order they were added: two `times: 1` faults fire on the first and second request.
   */
  fault(method: string, path: PathPattern, fault: Fault, options?: FaultOptions): FaultHandle;
  /** The recorded requests that match a method ("*" for any) and path pattern. */
  requestsTo(method: string, path: PathPattern): ReadonlyArray<RecordedRequest>;
  /** Removes every fault; routes and recorded requests stay. */
  clearFaults(): void;
  /** Removes every route and fault and forgets the recorded requests. */
  reset(): void;
  /** Stops the server, ends hanging and streaming responses at once and destroys every socket. Idempotent. */
  close(): Promise<void>;
}

interface RouteEntry {
  readonly method: string;
  readonly path: PathPattern;
  readonly respond: EmulatorResponse | RouteHandler;
  readonly options: RouteOptions;
  hits: number;
}

interface FaultEntry {
  readonly method: string;
  readonly path: PathPattern;
  readonly fault: Fault;
  remaining: number;
  hits: number;
}

/**
 * Starts an upstream emulator on 127.0.0.1 and resolves once it is listening.
 *
 * Use one per test file (reset between tests) or per test; always close it, or use `await using`.
 *
 * @example
 * const up = await startEmulator();
 * up.route("GET", /^\/api\/prediction\/(\w+)$/, (req) => ({ json: [{ uniprotAccession: req.match?.[1] }] }));
 * const res = await fetch(`${up.url}/api/prediction/P04637`);
 * await up.close();
 */
export const startEmulator = async (options: EmulatorOptions = {}): Promise<Emulator> => {
  let routes: RouteEntry[] = [];
  let faults: FaultEntry[] = [];
  let requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const lifetime = new AbortController();
  let closing: Promise<void> | undefined;

  const findRoute = (
    recorded: RecordedRequest,
  ): { entry: RouteEntry; request: EmulatorRequest } | { entry: undefined; pathOnly: boolean } => {
    let pathOnly = false;
    for (let i = routes.length - 1; i >= 0; i--) {
      const entry = routes[i]!;
      if (!methodMatches(entry.method, recorded.method)) continue;
      const m = pathMatches(entry.path, recorded.path);
      if (m === false) continue;
      const request: EmulatorRequest = { ...recorded, match: m === true ? undefined : m };
      const { query, when } = entry.options;
      if (query && !Object.entries(query).every(([k, v]) => recorded.query.getAll(k).includes(v))) {
        pathOnly = true;
        continue;
      }
      if (when && !when(request)) {
        pathOnly = true;
        continue;
      }
      return { entry, request };
    }
    return { entry: undefined, pathOnly };
  };

  const takeFault = (recorded: RecordedRequest): Fault | undefined => {
    const entry = faults.find(
      (f) =>
        f.remaining > 0 &&
        methodMatches(f.method, recorded.method) &&
        pathMatches(f.path, recorded.path) !== false,
    );
    if (!entry) return undefined;
    entry.remaining -= 1;
    entry.hits += 1;
    return entry.fault;
  };

  const respond = async (recorded: RecordedRequest): Promise<PreparedResponse> => {
    const found = findRoute(recorded);
    if (!found.entry) {
      return prepare({
        status: 404,
        json: {
          error: "no route",
          method: recorded.method,
          path: recorded.path,
          ...(found.pathOnly
            ? { hint: "a route matches this path but not its query or `when` condition" }
            : {}),
        },
      });
    }
    found.entry.hits += 1;
    const { respond: r } = found.entry;
    try {
      return prepare(typeof r === "function" ? await r(found.request) : r);
    } catch (error) {
      return prepare({
        status: 500,
        json: { error: "handler failed", message: error instanceof Error ? error.message : String(error) },
      });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.on("error", () => {});
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const recorded: RecordedRequest = {
      method: (req.method ?? "GET").toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      json: parseJson(body),
      at: Date.now(),
    };
    requests.push(recorded);

    const fault = takeFault(recorded);
    if (!fault) {
      send(res, await respond(recorded));
      return;
    }
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    await applyFault(fault, {
      res,
      signal: AbortSignal.any([lifetime.signal, gone.signal]),
      normal: () => respond(recorded),
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        send(res, prepare({ status: 500, json: { error: "emulator failed", message: String(error) } }));
      } else {
        res.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      lifetime.abort();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url,
    port,
    get requests() {
      return [...requests];
    },
    route(method, path, response, routeOptions = {}) {
      const entry: RouteEntry = { method, path, respond: response, options: routeOptions, hits: 0 };
      routes.push(entry);
      return {
        method,
        path,
        get hits() {
          return entry.hits;
        },
        remove() {
          routes = routes.filter((r) => r !== entry);
        },
      };
    },
    fault(method, path, fault, faultOptions = {}) {
      const times = faultOptions.times ?? Number.POSITIVE_INFINITY;
      if (!(times >= 1)) throw new RangeError(`fault times must be >= 1, got ${times}`);
      const entry: FaultEntry = { method, path, fault, remaining: times, hits: 0 };
      faults.push(entry);
      return {
        fault,
        get hits() {
          return entry.hits;
        },
        get remaining() {
          return entry.remaining;
        },
        remove() {
          entry.remaining = 0;
          faults = faults.filter((f) => f !== entry);
        },
      };
    },
    requestsTo(method, path) {
      return requests.filter((r) => methodMatches(method, r.method) && pathMatches(path, r.path) !== false);
    },
    clearFaults() {
      for (const f of faults) f.remaining = 0;
      faults = [];
    },
    reset() {
      for (const f of faults) f.remaining = 0;
      routes = [];
      faults = [];
      requests = [];
    },
    close,
    [Symbol.asyncDispose]: close,
  };
};

const parseJson = (body: string): unknown => {
  if (body === "") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
};
