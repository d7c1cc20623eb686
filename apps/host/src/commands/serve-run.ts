import { unknownScopeKeys } from "../auth/scopes-allow.js";
import type { CommandContext } from "../cli/command.js";
import { EXIT } from "../cli/usage-error.js";
import type { CreateHostOptions, Host } from "../host/create-host.js";
import { otlpConfigured } from "../telemetry/otlp-settings.js";
import { reloadOnHangup, waitForSignal } from "./serve-signals.js";

const summary = (host: Host, log: (l: string) => void) => {
  const plugins = host.catalog.plugins();
  const tools = host.catalog.list();
  for (const p of plugins) {
    const state = p.status === "ready" ? "ready" : `unconfigured (${p.message ?? "missing settings"})`;
    log(
      `  ${p.id.padEnd(14)} ${String(p.tools.length).padStart(2)} tool${p.tools.length === 1 ? " " : "s"}  ${state}`,
    );
  }
  log(
    `${plugins.length} plugins, ${tools.length} tools${host.problems.length ? `, ${host.problems.length} skipped (see above)` : ""}`,
  );
};

/**
 * The OTLP exporters when an endpoint variable is set; nothing is imported otherwise. A variable it
 * cannot use stops the start with a message naming it.
 */
const openTelemetry = async (
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): Promise<CreateHostOptions["telemetry"]> => {
  if (!otlpConfigured(env)) return undefined;
  const { otlpTelemetry } = await import("../telemetry/otlp-layer.js");
  const telemetry = otlpTelemetry(env);
  if (telemetry instanceof Error) throw telemetry;
  log(telemetry.summary);
  return telemetry;
};

/** Runs `quiver serve`: builds the host and serves it over HTTP (API, MCP, console) or MCP over stdio until a signal. */
export const runServe = async (ctx: CommandContext): Promise<number> => {
  const log = (line: string) => ctx.out.note(line);
  const settings = await ctx.settings();
  for (const w of settings.warnings) log(`warning: ${w}`);
  if (settings.cassettes) {
    const { dir, mode, timing } = settings.cassettes;
    log(
      mode === "record"
        ? `recording every tool call to ${dir}`
        : `replaying tool calls from ${dir}${mode === "replay" ? " (no network)" : ", recording the ones missing"}; timing ${timing}`,
    );
  }
  const { createHost } = await import("../host/create-host.js");
  const started = performance.now();
  const startHost = async () => {
    const telemetry = await openTelemetry(settings.env, log);
    return createHost(settings, { log, ...(telemetry ? { telemetry } : {}) });
  };
  const announce = (host: Host) => {
    for (const p of host.problems) log(`skipped ${p.package}: ${p.message}\n  fix: ${p.fix}`);
    summary(host, log);
    if (host.profile) {
      const p = host.profile.profile;
      log(
        `profile ${p.name}: ${p.tools.map((t) => t.name).join(", ")}${p.name === "co-scientist" ? " (and POST /external-tools/execute, GET /external-tools)" : ""}`,
      );
    }
    if (settings.aliasSets.length > 0) log(`alias sets over MCP: ${settings.aliasSets.join(", ")}`);
  };

  if (ctx.flags.stdio) {
    const { serveStdioUntilStopped } = await import("./serve-stdio-run.js");
    return serveStdioUntilStopped(settings, { startHost, announce, log, started });
  }

  const host = await startHost();
  announce(host);
  const { startServer } = await import("../http/start-server.js");
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(host, { log });
  } catch (error) {
    await host.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new Error(
        `Port ${settings.server.port} on ${settings.server.host} is in use: pick another with --port or QUIVER_PORT.`,
      );
    }
    if (code === "EACCES")
      throw new Error(
        `Not allowed to listen on ${settings.server.host}:${settings.server.port}: use a port above 1023.`,
      );
    throw error;
  }
  const tokens = Object.keys(settings.tokens).length;
  const auth =
    [
      settings.auth.oidc ? `OAuth access tokens from ${settings.auth.oidc.issuer}` : "",
      tokens ? `${tokens} bearer token${tokens === 1 ? "" : "s"}` : "",
    ]
      .filter(Boolean)
      .join(" and ") || "no auth (loopback)";
  const offHup = reloadOnHangup(host, log);
  const stopped = new Promise<void>((resolve) => {
    const off = waitForSignal(
      (name) =>
        void server.shutdown(name).then(() => {
          off();
          offHup();
          resolve();
        }),
      () => {
        log("second signal: cancelling every call now");
        host.tracker.abortAll("Stopped at once (second signal).");
      },
    );
  });
  // Said once the signals are handled: a supervisor that stops the server on reading it is heard.
  log(
    `quiver serving on ${server.url} (HTTP API; MCP Streamable HTTP at ${server.url}/mcp; console at ${server.url}/)` +
      `, ${auth}; ready in ${Math.round(performance.now() - started)} ms`,
  );
  for (const line of unknownScopeKeys(settings.auth.scopes, host.catalog)) log(line);
  if (settings.stores.redis) {
    log(
      `replica mode: limits, breakers, cache, confirmations and escalation shared through Redis; MCP ${settings.server.stateless ? "stateless (any replica answers any request)" : "with sessions (needs sticky sessions)"}`,
    );
  }
  await stopped;
  return EXIT.ok;
};
