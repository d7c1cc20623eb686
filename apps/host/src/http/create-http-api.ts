import type { IncomingMessage, ServerResponse } from "node:http";
import type { Catalog } from "@quiver/core";
import { bearerAuth } from "@quiver/mcp/server";
import { authenticateApi, sendMetadata } from "../auth/api-authenticate.js";
import { pluginState } from "../host/plugin-state.js";
import type { HttpApiOptions } from "./api-options.js";
import { API_ROUTES, type ApiServices } from "./api-routes.js";
import { consoleRoutes } from "./console-routes.js";
import { sendError, sendJson } from "./json-response.js";
import { checkOrigin } from "./origin-check.js";
import { BodyError } from "./read-json-body.js";

export type { HttpApiOptions } from "./api-options.js";

/** The path's segments, percent-decoded; undefined when one is not valid percent-encoded UTF-8. */
const decodeParts = (path: string): string[] | undefined => {
  try {
    return path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
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
  const auth = bearerAuth(options.tokens ?? {}, options.principal);
  const started = Date.now();
  const services: ApiServices = { catalog, options, limit: options.maxBodyBytes ?? 4 * 1024 * 1024 };
  const hosts = options.allowedHosts ?? ["localhost", "127.0.0.1", "[::1]"];
  const origins = options.allowedOrigins ?? ["localhost", "127.0.0.1", "[::1]"];
  const authOn = Object.keys(options.tokens ?? {}).length > 0;
  const web =
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

  /** What every request goes through before the routes: Host/Origin, draining, /health, the console. */
  const open = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    method: string,
  ): Promise<boolean> => {
    const refuse = checkOrigin(req, hosts, origins);
    if (refuse) {
      sendError(res, 403, "forbidden_origin", refuse);
      return true;
    }
    if (options.draining?.()) {
      sendError(res, 503, "shutting_down", "The host is shutting down.", {
        headers: { connection: "close", "retry-after": "5" },
      });
      return true;
    }
    if (options.auth && (await sendMetadata(options.auth, res, method, path))) return true;
    if (path === "/health") {
      if (method !== "GET" && method !== "HEAD")
        sendError(res, 405, "method_not_allowed", "Use GET.", { headers: { allow: "GET" } });
      else sendJson(res, 200, health());
      return true;
    }
    return web !== undefined && (await web.page(req, res, path));
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    if (await open(req, res, path, method)) return;
    const caller = await authenticateApi(options.auth, auth, req.headers.authorization);
    if ("status" in caller)
      return sendError(res, caller.status, caller.code, caller.message, {
        fix: caller.fix,
        headers: caller.headers,
      });
    const principal = caller.principal;
    if (
      web &&
      path.startsWith("/console/api/") &&
      (await web.api(req, res, path, {
        principal,
        auth: authOn || options.auth !== undefined,
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
    const request = {
      req,
      res,
      url,
      path,
      parts,
      method,
      get: method === "GET" || method === "HEAD",
      principal,
      caller,
    };
    const found = API_ROUTES.find((r) => r.matches(request, services));
    if (found) return found.handle(request, services);
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
