import type { IncomingMessage, ServerResponse } from "node:http";
import type { Catalog } from "@quiver/core";
import { sendConsoleFile } from "./console-assets.js";
import { type ConsoleCaller, type ConsoleSource, consoleState, consoleStats } from "./console-data.js";
import { sendError, sendJson } from "./json-response.js";

/** How long a plugin's health check may take when the console asks for it. */
const HEALTH_TIMEOUT_MS = 10_000;

/** True when the request is a browser asking for a page (not a JSON client asking for GET /). */
const wantsHtml = (req: IncomingMessage) => /\btext\/html\b/.test(req.headers.accept ?? "");

/**
 * The console's two kinds of route. `page` (before auth): the static page at `/` for a browser
 * (`Accept: text/html`; JSON clients keep GET / as it was) and its files under /console/; they hold
 * no data. `api` (after auth, with the caller's principal): GET /console/api/state,
 * GET /console/api/stats and GET /console/api/health/:plugin (the plugin's health check). Each
 * answers true when it handled the request.
 *
 * @example
 * const tracked = trackCalls(catalog)
 * const routes = consoleRoutes(catalog, { recent: tracked.recent }, { version: "0.1.0" })
 * if (!(await routes.page(req, res, "/"))) await routes.api(req, res, "/console/api/state", { principal: "alice", auth: true })
 */
export const consoleRoutes = (
  catalog: Catalog,
  source: ConsoleSource,
  info: { readonly version?: string },
) => {
  const page = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (path === "/" && wantsHtml(req)) return sendConsoleFile(res, "index.html", source.dir);
    if (path === "/console") return sendConsoleFile(res, "index.html", source.dir);
    if (path.startsWith("/console/") && !path.startsWith("/console/api/"))
      return sendConsoleFile(res, path.slice("/console/".length), source.dir);
    return false;
  };

  const api = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    caller: ConsoleCaller,
  ): Promise<boolean> => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (path === "/console/api/state") {
      sendJson(res, 200, consoleState(catalog, source, { ...caller, ...info }));
      return true;
    }
    if (path === "/console/api/stats") {
      sendJson(res, 200, await consoleStats(catalog, source));
      return true;
    }
    const health = /^\/console\/api\/health\/([^/]+)$/.exec(path);
    if (health) {
      // The plugin's own health check (as `quiver doctor` runs it), bounded like doctor's default.
      const id = decodeURIComponent(health[1]!);
      const known = catalog.plugins().some((p) => p.id === id);
      if (!known) {
        sendError(res, 404, "unknown_plugin", `No plugin "${id}" is registered.`);
        return true;
      }
      sendJson(res, 200, await catalog.health(id, AbortSignal.timeout(HEALTH_TIMEOUT_MS)));
      return true;
    }
    return false;
  };
  return { page, api };
};
