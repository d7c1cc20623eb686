import type { IncomingMessage, ServerResponse } from "node:http";
import { type Catalog, type SchemaTarget, viewOnly } from "@quiver/core";
import { usesAllowed, viewUriOf } from "@quiver/mcp/server";
import type { ApiCaller } from "../auth/api-caller.js";
import type { HttpApiOptions } from "./api-options.js";
import { sendError, sendJson } from "./json-response.js";
import { PROMETHEUS_CONTENT_TYPE, toPrometheus } from "./prometheus.js";
import { resourcesRoute } from "./resource-routes.js";
import { taskRoutes } from "./task-routes.js";
import { callToolRoute } from "./tool-call-route.js";

/** An authenticated request, as the API's routes read it. */
export interface ApiRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly path: string;
  /** The path's segments, percent-decoded. */
  readonly parts: ReadonlyArray<string>;
  readonly method: string;
  /** The caller's principal and identity (groups, client), and which tools' scopes it lacks. */
  readonly caller: ApiCaller;
}

/** What the routes answer with: the catalog, the API's options and the largest body. */
export interface ApiServices {
  readonly catalog: Catalog;
  readonly options: HttpApiOptions;
  readonly maxBodyBytes: number;
}

/**
 * One route, as data the router matches without running route code: the path's segments (`:name` any
 * one segment, a last `*` any rest, none included), the methods it takes (any when left out: the route
 * answers 405 itself) and its handler.
 */
export interface ApiRoute {
  readonly path: ReadonlyArray<string>;
  readonly methods?: ReadonlyArray<string>;
  readonly handle: (r: ApiRequest, services: ApiServices) => unknown;
}

/** GET and HEAD. */
const READ = ["GET", "HEAD"];

const TARGETS = new Set<SchemaTarget>(["mcp", "openai", "anthropic", "gemini"]);

/** GET /: the endpoints (and the seed profile's tools). */
const index: ApiRoute["handle"] = ({ res }, { options }) =>
  sendJson(res, 200, {
    name: "quiver",
    version: options.version,
    endpoints: [
      "GET /tools",
      "GET /tools/:name",
      "POST /tools/:name/call",
      "GET /resources[?uri=]",
      "GET /views?uri=",
      "GET /find?need=",
      "GET /health",
      "GET /metrics",
      "POST /mcp",
      ...(options.tasks ? ["GET /tasks", "GET /tasks/:id", "DELETE /tasks/:id"] : []),
      ...(options.profile?.profile.name === "co-scientist"
        ? ["GET /external-tools", "POST /external-tools/execute"]
        : []),
    ],
    ...(options.profile
      ? { profile: options.profile.profile.name, profileTools: options.profile.list().map((t) => t.name) }
      : {}),
  });

/** GET /metrics: the catalog's metrics and the host's gauges, in Prometheus' text format. */
const metrics: ApiRoute["handle"] = async ({ res }, { catalog, options }) => {
  const text = toPrometheus(await catalog.metrics(), options.gauges?.() ?? []);
  res.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" });
  res.end(text);
};

/** GET /find?need=…: the tools that best fit a need in words. */
const find: ApiRoute["handle"] = ({ res, url, caller }, { catalog, options }) => {
  const need = url.searchParams.get("need") ?? url.searchParams.get("q");
  if (!need) return sendError(res, 400, "missing_need", "Give the need in words: /find?need=…");
  const limit = Number(url.searchParams.get("limit") ?? 5);
  const max = Number.isFinite(limit) ? limit : 5;
  // View-only tools are for a view to call, not for an agent to find.
  const hidden = new Set(
    catalog
      .list()
      .filter(viewOnly)
      .map((t) => t.name),
  );
  return sendJson(res, 200, {
    need,
    // Ranked past the limit, then cut after leaving out what the caller's scopes do not allow.
    tools: options
      .finder!.rank(need, { limit: catalog.list().length })
      .filter((t) => caller.missingScopes(t).length === 0 && !hidden.has(t.name))
      .slice(0, max),
  });
};

/**
 * GET /tools[?category=]: the seed profile's tools, then the catalog's it does not shadow; not the
 * view-only ones (visibility `["app"]`: an agent is not shown them, a view calls them by name).
 */
const listTools: ApiRoute["handle"] = ({ res, url, caller }, { catalog, options }) => {
  const category = url.searchParams.get("category");
  const seeds = options.profile?.list() ?? [];
  const shadowed = new Set(seeds.map((t) => t.name));
  const listed = catalog.list();
  const byName = new Map(listed.map((t) => [t.name, t]));
  const allowed = (name: string) => {
    const t = byName.get(name);
    return t && caller.missingScopes(t).length === 0;
  };
  return sendJson(res, 200, {
    tools: [
      ...seeds.filter((t) => (!category || t.category === category) && usesAllowed(t.uses, allowed)),
      ...listed.filter(
        (t) =>
          !shadowed.has(t.name) &&
          !viewOnly(t) &&
          (!category || t.category === category) &&
          caller.missingScopes(t).length === 0,
      ),
    ],
  });
};

/**
 * GET /tools/:name[?target=]: one tool's description for a model provider, with the `ui://` URI of
 * its view (`viewUri`) when it has one (the console frames it from `GET /views?uri=`).
 */
const describeTool: ApiRoute["handle"] = async ({ res, url, parts }, { catalog, options }) => {
  const name = parts[1]!;
  const target = (url.searchParams.get("target") ?? "mcp") as SchemaTarget;
  if (!TARGETS.has(target))
    return sendError(res, 400, "invalid_target", `target must be one of ${[...TARGETS].join(", ")}.`);
  const seedInfo = options.profile?.list().find((t) => t.name === name);
  if (seedInfo) return sendJson(res, 200, seedInfo);
  const d = catalog.describe(name, target);
  if (d) {
    const viewUri = viewUriOf(catalog, d);
    return sendJson(res, 200, viewUri ? { ...d, viewUri } : d);
  }
  const r = await catalog.call(name, {});
  return sendError(res, 404, "unknown_tool", r.message, r.suggestion ? { fix: r.suggestion } : {});
};

/**
 * The API's routes after authentication that `options` turn on (`/find` with a finder, the
 * co-scientist's `/external-tools` with its profile), in the order they are tried.
 *
 * @example
 * const routes = apiRoutes({ finder: createToolFinder(catalog) })
 */
export const apiRoutes = (options: HttpApiOptions): ReadonlyArray<ApiRoute> => [
  { path: [], methods: READ, handle: index },
  { path: ["metrics"], methods: READ, handle: metrics },
  ...(options.finder ? [{ path: ["find"], methods: READ, handle: find }] : []),
  ...(options.profile?.profile.name === "co-scientist"
    ? [
        {
          path: ["external-tools", "*"],
          // The co-scientist's catalogue and adapters load at its first request, not at start.
          handle: async ({ req, res, parts, method, caller }: ApiRequest, { maxBodyBytes }: ApiServices) =>
            (await import("./external-tool-routes.js")).externalToolRoutes(options.profile!, {
              req,
              res,
              parts,
              method,
              principal: caller.principal,
              maxBodyBytes,
              tasks: options.tasks,
            }),
        },
      ]
    : []),
  { path: ["tools"], methods: READ, handle: listTools },
  { path: ["tools", ":name"], methods: READ, handle: describeTool },
  { path: ["tools", ":name", "call"], handle: callToolRoute },
  { path: ["resources"], methods: READ, handle: resourcesRoute },
  ...(options.tasks ? taskRoutes(options.tasks, options.profile) : []),
];
