import type { IncomingMessage, ServerResponse } from "node:http";
import type { Catalog } from "@quiver/core";
import type { ApiAuth } from "../auth/api-caller.js";
import { pluginState } from "../host/plugin-state.js";
import type { HttpApiOptions } from "./api-options.js";
import { type ApiRoute, type ApiServices, apiRoutes } from "./api-routes.js";
import { consoleRoutes } from "./console-routes.js";
import { sendError, sendJson } from "./json-response.js";
import { apiAuthenticator, BodyError, checkOrigin } from "./request-guard.js";
import { sendViewPage } from "./view-page.js";

export type { HttpApiOptions } from "./api-options.js";

/** The path's segments, percent-decoded; undefined when one is not valid percent-encoded UTF-8. */
const decodeParts = (path: string): string[] | undefined => {
  try {
    return path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
};

/** Whether a route takes this method and these segments (`:name` any one, a last `*` any rest). */
const routeMatches = (route: ApiRoute, parts: ReadonlyArray<string>, method: string): boolean => {
  const anyRest = route.path.at(-1) === "*";
  const length = anyRest ? route.path.length - 1 : route.path.length;
  if (anyRest ? parts.length < length : parts.length !== length) return false;
  if (route.methods && !route.methods.includes(method)) return false;
  for (let i = 0; i < length; i++) {
    const segment = route.path[i]!;
    if (!segment.startsWith(":") && segment !== parts[i]) return false;
  }
  return true;
};

/** Answers a Protected Resource Metadata request (true), or leaves the path to the routes (false). */
const sendMetadata = async (auth: ApiAuth, res: ServerResponse, method: string, path: string) => {
  const response = auth.metadata(method, path);
  if (!response) return false;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  sendJson(res, response.status, await response.json(), headers);
  return true;
};

/**
 * The plain HTTP JSON API over a catalog, as a node:http handler:
 * GET /tools, GET /tools/:name, POST /tools/:name/call, GET /find?need=…, GET /health, GET /metrics,
 * and the web console (GET / from a browser, /console/…).
 * Bearer tokens map to principals (GET /health stays open); Host and Origin are checked against
 * DNS rebinding; errors are JSON `{ error: { code, message, fix? } }`. A client that disconnects
 * cancels its call.
 *
 * @example
 * const api = createHttpApi(catalog, { tokens: { "tok-abc": "alice" } })
 * http.createServer(api).listen(7333, "127.0.0.1")
 */
export const createHttpApi = (catalog: Catalog, options: HttpApiOptions = {}) => {
  const authenticate = apiAuthenticator(options);
  const routes = apiRoutes(options);
  const started = Date.now();
  const services: ApiServices = { catalog, options, maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024 };
  const hosts = options.allowedHosts ?? ["localhost", "127.0.0.1", "[::1]"];
  const origins = options.allowedOrigins ?? ["localhost", "127.0.0.1", "[::1]"];
  const asksForTokens = Object.keys(options.tokens ?? {}).length > 0 || options.auth !== undefined;
  const webConsole =
    options.console === false
      ? undefined
      : consoleRoutes(catalog, options.console ?? {}, options.version ? { version: options.version } : {});

  const health = () => ({
    status: options.draining?.() ? "draining" : "ok",
    version: options.version,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    plugins: catalog.plugins().map((p) => {
      const { state, message } = pluginState(p);
      return {
        id: p.id,
        version: p.version,
        status: state,
        tools: p.tools.length,
        ...(message ? { message } : {}),
      };
    }),
    tools: catalog.list().length,
    ...options.health?.(),
  });

  /**
   * Answers what needs no token (true when it did): GET /health, the OAuth resource metadata under
   * /.well-known/ and the console's pages (at / for a browser and under /console/).
   */
  const answerWithoutToken = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    method: string,
  ) => {
    if (path === "/health") {
      if (method !== "GET" && method !== "HEAD")
        sendError(res, 405, "method_not_allowed", "Use GET.", { headers: { allow: "GET" } });
      else sendJson(res, 200, health());
      return true;
    }
    if (options.auth && path.startsWith("/.well-known/"))
      return sendMetadata(options.auth, res, method, path);
    if (webConsole && (path === "/" || path.startsWith("/console"))) return webConsole.page(req, res, path);
    // The console's MCP Apps views: static pages (no data), framed in a sandbox under their own CSP.
    if (webConsole && path === "/views" && (method === "GET" || method === "HEAD")) {
      await sendViewPage(res, catalog, url.searchParams.get("uri"));
      return true;
    }
    return false;
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    const forbidden = checkOrigin(req, hosts, origins);
    if (forbidden) return sendError(res, 403, "forbidden_origin", forbidden);
    if (options.draining?.())
      return sendError(res, 503, "shutting_down", "The host is shutting down.", {
        headers: { connection: "close", "retry-after": "5" },
      });
    if (await answerWithoutToken(req, res, url, path, method)) return;
    const caller = await authenticate(req.headers.authorization);
    if ("status" in caller) return sendError(res, caller.status, caller.code, caller.message, caller);
    if (
      webConsole &&
      path.startsWith("/console/api/") &&
      (await webConsole.api(req, res, path, {
        principal: caller.principal,
        auth: asksForTokens,
        missingScopes: caller.missingScopes,
      }))
    )
      return;
    const parts = decodeParts(path);
    if (!parts) {
      return sendError(res, 400, "invalid_path", `The path ${path} is not valid percent-encoded UTF-8.`, {
        fix: "Percent-encode the tool name as UTF-8 (encodeURIComponent).",
      });
    }
    const found = routes.find((r) => routeMatches(r, parts, method));
    if (found) return found.handle({ req, res, url, path, parts, method, caller }, services);
    return sendError(res, 404, "not_found", `No route ${method} ${path}.`, {
      fix: "See GET / for the endpoints.",
    });
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await route(req, res);
    } catch (error) {
      if (error instanceof BodyError) return sendError(res, error.status, error.code, error.message);
      sendError(res, 500, "internal", `The host failed: ${(error as Error).message}`);
    }
  };
};
