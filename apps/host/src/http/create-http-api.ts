import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Catalog, SchemaTarget, ToolResult } from "@quiver/core";
import { bearerAuth } from "@quiver/mcp/server";
import type { ToolIndex } from "../find/rank-tools.js";
import { type HostProfile, parseSessionValues, SESSION_VALUES_HEADER } from "../profiles/host-profile.js";
import type { ConsoleSource } from "./console-data.js";
import { consoleRoutes } from "./console-routes.js";
import { externalToolRoutes } from "./external-tool-routes.js";
import { sendError, sendJson } from "./json-response.js";
import { checkOrigin } from "./origin-check.js";
import { type ExtraGauge, PROMETHEUS_CONTENT_TYPE, toPrometheus } from "./prometheus.js";
import { BodyError, readJsonBody } from "./read-json-body.js";

/** Options of the JSON API. */
export interface HttpApiOptions {
  /** Bearer token → principal; when empty, every request is `principal`. */
  readonly tokens?: Readonly<Record<string, string>>;
  /** The principal of requests when no tokens are configured. */
  readonly principal?: string | undefined;
  readonly allowedOrigins?: ReadonlyArray<string> | "*";
  readonly allowedHosts?: ReadonlyArray<string> | "*";
  /** Largest POST body in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Reported by GET /health. */
  readonly version?: string;
  /** Extra facts for GET /health (skipped plugins ...). */
  readonly health?: () => Record<string, unknown>;
  /** Extra gauges for GET /metrics. */
  readonly gauges?: () => ReadonlyArray<ExtraGauge>;
  /** Ranks tools for GET /find (default: none, 404). */
  readonly finder?: ToolIndex;
  /** True while the host drains: requests get 503. */
  readonly draining?: () => boolean;
  /**
   * The web console at `/` (for browsers) and /console/: on by default; `false` turns it off. Give
   * the host's skipped plugins and recent calls to show them.
   */
  readonly console?: ConsoleSource | false;
  /** A seed system's profile: its tools answer the seed's own shapes (`quiver serve --profile`). */
  readonly profile?: HostProfile | undefined;
}

const TARGETS = new Set<SchemaTarget>(["mcp", "openai", "anthropic", "gemini"]);
const WRAPPER_KEYS = new Set(["input", "session", "timeoutMs"]);

/** The path's segments, percent-decoded; undefined when one is not valid percent-encoded UTF-8. */
const decodeParts = (path: string): string[] | undefined => {
  try {
    return path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
};

/** The HTTP status for an envelope: 200 whenever the tool ran (the envelope carries the outcome). */
const statusHeader = (r: ToolResult) => ({ "x-quiver-status": r.status });

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
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
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
    plugins: catalog.plugins().map((p) => ({
      id: p.id,
      version: p.version,
      status: p.status,
      tools: p.tools.length,
      ...(p.message ? { message: p.message } : {}),
    })),
    tools: catalog.list().length,
    ...options.health?.(),
  });

  const callTool = async (
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    principal: string | undefined,
  ) => {
    const seed = options.profile?.find(name);
    if (!seed && !catalog.has(name)) {
      const r = await catalog.call(name, {});
      sendError(res, 404, "unknown_tool", r.message, r.suggestion ? { fix: r.suggestion } : {});
      return;
    }
    const body = await readJsonBody(req, limit);
    const isWrapper =
      typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      "input" in body &&
      Object.keys(body).every((k) => WRAPPER_KEYS.has(k));
    const input = isWrapper ? (body as { input: unknown }).input : (body ?? {});
    const session = isWrapper ? ((body as { session?: unknown }).session ?? {}) : {};
    if (typeof session !== "object" || session === null || Array.isArray(session)) {
      sendError(res, 400, "invalid_session", "session must be an object: { id?, values? }.");
      return;
    }
    const s = session as { id?: unknown; values?: unknown };
    const headerSession = req.headers["x-quiver-session"];
    // Without a session id a request is a one-shot call in a session of its own: clients sharing a
    // principal (the demo host's "demo") never share a failure count. Name a session to get `escalate`.
    const id =
      typeof s.id === "string"
        ? s.id
        : typeof headerSession === "string"
          ? headerSession
          : `one-shot-${randomUUID()}`;
    const headerValues = parseSessionValues(req.headers[SESSION_VALUES_HEADER] as string | undefined);
    if (headerValues instanceof Error) {
      sendError(res, 400, "invalid_session", headerValues.message);
      return;
    }
    const bodyValues =
      typeof s.values === "object" && s.values !== null ? (s.values as Record<string, unknown>) : undefined;
    const values = headerValues || bodyValues ? { ...headerValues, ...bodyValues } : undefined;
    // A per-call time limit: `timeoutMs` in the wrapper or the X-Quiver-Timeout-Ms header (the
    // catalog bounds it by the tool's own timeout and refuses a value that is not a positive number).
    const headerTimeout = req.headers["x-quiver-timeout-ms"];
    const bodyTimeout = isWrapper ? (body as { timeoutMs?: unknown }).timeoutMs : undefined;
    const timeoutMs =
      bodyTimeout !== undefined
        ? bodyTimeout
        : typeof headerTimeout === "string"
          ? Number(headerTimeout)
          : undefined;
    const controller = new AbortController();
    const onClose = () => {
      if (!res.writableEnded) controller.abort(new Error("The client disconnected."));
    };
    res.once("close", onClose);
    const call = {
      session: {
        id,
        ...(principal !== undefined ? { principal } : {}),
        ...(values ? { values } : {}),
      },
      signal: controller.signal,
      ...(timeoutMs !== undefined ? { timeoutMs: timeoutMs as number } : {}),
    };
    if (seed) {
      // A seed tool answers the seed's own value as the body (a dict, a str, a list), never an envelope.
      const value = await options.profile!.call(seed, input, call);
      res.off("close", onClose);
      if (!res.destroyed) sendJson(res, 200, value, { "x-quiver-profile": options.profile!.profile.name });
      return;
    }
    const result = await catalog.call(name, input, call);
    res.off("close", onClose);
    if (!res.destroyed) sendJson(res, 200, result, statusHeader(result));
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    const refuse = checkOrigin(req, hosts, origins);
    if (refuse) return sendError(res, 403, "forbidden_origin", refuse);
    if (options.draining?.()) {
      return sendError(res, 503, "shutting_down", "The host is shutting down.", {
        headers: { connection: "close", "retry-after": "5" },
      });
    }
    if (path === "/health") {
      if (method !== "GET" && method !== "HEAD")
        return sendError(res, 405, "method_not_allowed", "Use GET.", { headers: { allow: "GET" } });
      return sendJson(res, 200, health());
    }
    if (web && (await web.page(req, res, path))) return;
    const verdict = auth(req.headers.authorization);
    if (!verdict.ok) {
      return sendError(res, 401, "unauthorized", verdict.message, {
        fix: "Send Authorization: Bearer <token> with a token from the host's config (tokens).",
        headers: { "www-authenticate": 'Bearer realm="quiver"' },
      });
    }
    const principal = verdict.principal;
    if (
      web &&
      path.startsWith("/console/api/") &&
      (await web.api(req, res, path, { principal, auth: authOn }))
    )
      return;
    const parts = decodeParts(path);
    if (!parts) {
      return sendError(res, 400, "invalid_path", `The path ${path} is not valid percent-encoded UTF-8.`, {
        fix: "Percent-encode the tool name as UTF-8 (encodeURIComponent).",
      });
    }
    const get = method === "GET" || method === "HEAD";
    if (path === "/" && get) {
      return sendJson(res, 200, {
        name: "quiver",
        version: options.version,
        endpoints: [
          "GET /tools",
          "GET /tools/:name",
          "POST /tools/:name/call",
          "GET /find?need=",
          "GET /health",
          "GET /metrics",
          "POST /mcp",
          ...(options.profile?.profile.name === "co-scientist"
            ? ["GET /external-tools", "POST /external-tools/execute"]
            : []),
        ],
        ...(options.profile
          ? { profile: options.profile.profile.name, profileTools: options.profile.list().map((t) => t.name) }
          : {}),
      });
    }
    if (path === "/metrics" && get) {
      const text = toPrometheus(await catalog.metrics(), options.gauges?.() ?? []);
      res.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" });
      return res.end(text);
    }
    if (path === "/find" && get && options.finder) {
      const need = url.searchParams.get("need") ?? url.searchParams.get("q");
      if (!need) return sendError(res, 400, "missing_need", "Give the need in words: /find?need=…");
      const limit = Number(url.searchParams.get("limit") ?? 5);
      return sendJson(res, 200, {
        need,
        tools: options.finder.rank(need, { limit: Number.isFinite(limit) ? limit : 5 }),
      });
    }
    if (parts[0] === "external-tools" && options.profile?.profile.name === "co-scientist") {
      return externalToolRoutes(options.profile, { req, res, parts, method, principal, limit });
    }
    if (parts[0] === "tools") {
      if (parts.length === 1 && get) {
        const category = url.searchParams.get("category");
        const seeds = options.profile?.list() ?? [];
        const shadowed = new Set(seeds.map((t) => t.name));
        return sendJson(res, 200, {
          tools: [
            ...seeds.filter((t) => !category || t.category === category),
            ...catalog.list().filter((t) => !shadowed.has(t.name) && (!category || t.category === category)),
          ],
        });
      }
      if (parts.length === 2 && get) {
        const target = (url.searchParams.get("target") ?? "mcp") as SchemaTarget;
        if (!TARGETS.has(target))
          return sendError(res, 400, "invalid_target", `target must be one of ${[...TARGETS].join(", ")}.`);
        const seedInfo = options.profile?.list().find((t) => t.name === parts[1]);
        if (seedInfo) return sendJson(res, 200, seedInfo);
        const d = catalog.describe(parts[1]!, target);
        if (!d) {
          const r = await catalog.call(parts[1]!, {});
          return sendError(res, 404, "unknown_tool", r.message, r.suggestion ? { fix: r.suggestion } : {});
        }
        return sendJson(res, 200, d);
      }
      if (parts.length === 3 && parts[2] === "call") {
        if (method !== "POST")
          return sendError(res, 405, "method_not_allowed", "Use POST to call a tool.", {
            headers: { allow: "POST" },
          });
        return callTool(req, res, parts[1]!, principal);
      }
    }
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
