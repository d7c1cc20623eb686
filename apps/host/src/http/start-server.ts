import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHttpHandler } from "@quiver/mcp/server";
import pkg from "../../package.json" with { type: "json" };
import { createHostAuth } from "../auth/host-auth.js";
import { createToolFinder } from "../find/tool-finder.js";
import type { Host } from "../host/create-host.js";
import { type PluginState, pluginState } from "../host/plugin-state.js";
import type { DrainReport } from "../host/track-calls.js";
import { storeGauges } from "../stores/store-gauges.js";
import { openTaskRunner } from "../tasks/open-task-runner.js";
import { createHttpApi } from "./create-http-api.js";

/** A running `quiver serve`. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:7333 */
  readonly url: string;
  readonly port: number;
  /**
   * Graceful shutdown: answer new requests 503, let in-flight calls finish within the host's bound, cancel the
   * rest (their callers get an `unavailable` envelope), close MCP sessions and the catalog.
   */
  readonly shutdown: (reason?: string) => Promise<DrainReport>;
}

/** Options of `startServer`. */
export interface StartServerOptions {
  /** Log lines (default: stderr). */
  readonly log?: (line: string) => void;
}

const isMcpStream = (req: IncomingMessage) => req.method === "GET";

/**
 * Serves a host on one port: the MCP Streamable HTTP endpoint at /mcp, the web console at / (for
 * browsers) and the JSON API everywhere else, with the same bearer tokens → principals and Origin
 * rules on all of them.
 *
 * @example
 * const server = await startServer(await createHost(settings))
 * process.once("SIGTERM", () => server.shutdown("SIGTERM").then(() => process.exit(0)))
 */
export const startServer = async (host: Host, options: StartServerOptions = {}): Promise<RunningServer> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { settings, catalog } = host;
  const server = settings.server;
  let draining = false;
  const finder = createToolFinder(catalog);
  // The public URL defaults to the bound address, known once listening.
  let boundUrl = "";
  const auth = createHostAuth(settings, () => boundUrl);
  // Tasks on the host's store: MCP (both eras) and the API's `Prefer: respond-async` share them.
  const tasks = await openTaskRunner(host);
  const mcp = createMcpHttpHandler(catalog, {
    allowedOrigins: server.allowedOrigins,
    allowedHosts: server.allowedHosts,
    maxSessionsPerPrincipal: server.maxSessionsPerPrincipal,
    maxSessions: server.maxSessions,
    sessionIdleTimeout: server.sessionIdleTimeoutMs,
    ...(Object.keys(settings.tokens).length > 0 ? { tokens: settings.tokens } : {}),
    ...(settings.principal !== undefined ? { principal: settings.principal } : {}),
    ...auth?.mcp,
    onError: (error) => log(`mcp: ${error.message}`),
    ...(server.stateless ? { stateless: true } : {}),
    ...(host.profile ? { extraTools: host.profile.mcpTools() } : {}),
    ...(settings.aliasSets.length > 0 ? { aliasSets: settings.aliasSets } : {}),
    tasks,
  });
  const api = createHttpApi(catalog, {
    tokens: settings.tokens,
    principal: settings.principal,
    auth: auth?.api,
    allowedOrigins: server.allowedOrigins,
    allowedHosts: server.allowedHosts,
    version: pkg.version,
    finder,
    draining: () => draining,
    profile: host.profile,
    tasks,
    console: { problems: () => host.problems, recent: host.tracker.recent, aliases: settings.aliases },
    health: () => ({
      inflight: host.tracker.inflight().length,
      store: host.store.status(),
      problems: host.problems.map((p) => ({ package: p.package, kind: p.kind, message: p.message })),
    }),
    gauges: () => [
      {
        name: "quiver_host_inflight_calls",
        help: "Tool calls running now",
        samples: [{ value: host.tracker.inflight().length }],
      },
      {
        name: "quiver_host_plugins",
        help: "Plugins by status (failing = its last setup failed; skipped = failed to load)",
        samples: [
          ...(["ready", "unconfigured", "failing"] as const satisfies ReadonlyArray<PluginState>).map(
            (status) => ({
              labels: { status },
              value: catalog.plugins().filter((p) => pluginState(p).state === status).length,
            }),
          ),
          { labels: { status: "skipped" }, value: host.problems.length },
        ],
      },
      ...storeGauges(host.store.status()),
      {
        name: "process_resident_memory_bytes",
        help: "Resident memory of the host process",
        samples: [{ value: process.memoryUsage.rss() }],
      },
    ],
  });

  // Requests being answered, so that answers (cancelled ones included) reach their clients at shutdown;
  // an MCP GET stream stays open as long as its client wants, so it is not waited for.
  let answering = 0;
  const whenAllAnswered: Array<() => void> = [];
  const serveRequest = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? "/").split("?")[0]!;
    if (!(pathname === "/mcp" && isMcpStream(req))) {
      answering++;
      res.once("close", () => {
        answering--;
        if (answering === 0) for (const f of whenAllAnswered.splice(0)) f();
      });
    }
    if (pathname === "/mcp" || pathname === "/mcp/") {
      if (draining) {
        res.writeHead(503, { "content-type": "application/json", connection: "close", "retry-after": "5" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32000, message: "The host is shutting down." },
            id: null,
          }),
        );
        return;
      }
      void mcp(req, res);
      return;
    }
    void api(req, res);
  };
  const http = createServer({ keepAliveTimeout: 5_000 }, serveRequest);
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(server.port, server.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostPart}:${address.port}`;
  boundUrl = url;

  let shuttingDown: Promise<DrainReport> | undefined;
  const shutdown = (reason = "shutdown") => {
    shuttingDown ??= (async () => {
      draining = true;
      const inflight = host.tracker.inflight();
      log(
        `${reason}: no longer accepting requests; ${inflight.length} call${inflight.length === 1 ? "" : "s"} in flight` +
          (inflight.length > 0
            ? `, waiting up to ${Math.round(settings.server.shutdownTimeoutMs / 100) / 10}s`
            : ""),
      );
      // Keep listening while draining: a new request gets the 503 `shutting_down` (the API and /mcp
      // both answer it), not a refused connection. Idle keep-alive connections close now.
      http.closeIdleConnections();
      const report = await host.tracker.drain(settings.server.shutdownTimeoutMs);
      if (report.finished > 0) log(`${report.finished} call${report.finished === 1 ? "" : "s"} finished`);
      for (const c of report.cancelled) {
        log(
          `cancelled ${c.tool}${c.principal ? ` (principal ${c.principal})` : ""} after ${((Date.now() - c.startedAt) / 1000).toFixed(1)}s: its caller got "${c.result.status}: ${c.result.message}"`,
        );
      }
      // Let the answers of finished and cancelled calls reach their clients (bounded).
      if (answering > 0)
        await Promise.race([
          new Promise<void>((r) => whenAllAnswered.push(r)),
          new Promise((r) => setTimeout(r, 2_000)),
        ]);
      await mcp.close().catch(() => {});
      // Tasks still working here end failed ("the replica running it shut down").
      await tasks.close();
      finder.dispose();
      http.close();
      http.closeAllConnections();
      await host.close();
      log("stopped");
      return report;
    })();
    return shuttingDown;
  };
  return { url, port: address.port, shutdown };
};
