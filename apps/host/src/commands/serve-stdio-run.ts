import { EXIT } from "../cli/usage-error.js";
import type { HostSettings } from "../config/host-settings.js";
import type { Host } from "../host/create-host.js";
import { reloadOnHangup, waitForSignal } from "./serve-signals.js";

/** What `quiver serve --stdio` needs from the serve command. */
export interface StdioServeParts {
  /** Loads the plugins and builds the host. */
  readonly startHost: () => Promise<Host>;
  /** Reports the host's plugins and problems on stderr. */
  readonly announce: (host: Host) => void;
  readonly log: (line: string) => void;
  /** When the start began (performance.now()), for the "ready in" line. */
  readonly started: number;
}

/**
 * Serves MCP over stdin/stdout until stdin closes or a signal comes. The connection opens before the
 * plugins load: an MCP client's `initialize` is answered while they load (the client's half of the
 * handshake overlaps the host's start), and its first tools/list when they are in. A host that fails
 * to start answers those requests with its error, closes the connection and exits with it.
 */
export const serveStdioUntilStopped = async (
  settings: HostSettings,
  parts: StdioServeParts,
): Promise<number> => {
  const { log } = parts;
  const { serveStdio } = await import("@quiver/mcp/server");
  // Stdin may close before the host is ready: listen from now on.
  const stdinClosed = new Promise<void>((resolve) => process.stdin.once("end", resolve));
  const hostReady = (async () => {
    // Loading the plugins keeps the thread busy until they are in: first one turn of the event loop,
    // in which the transport reads the client's opening request (sent right after the spawn) and
    // answers it.
    await new Promise((resolve) => setImmediate(resolve));
    return parts.startHost();
  })();
  const stdio = serveStdio(
    hostReady.then((h) => h.catalog),
    {
      ...(settings.principal !== undefined ? { principal: settings.principal } : {}),
      onError: (e) => log(`mcp: ${e.message}`),
      extraTools: hostReady.then((h) => h.profile?.mcpTools() ?? []),
    },
  );
  let host: Host;
  try {
    host = await hostReady;
  } catch (error) {
    // The requests waiting for the host are answered with its error in the microtasks that follow the
    // rejection: one turn of the event loop lets every answer out before the connection closes.
    await new Promise((resolve) => setImmediate(resolve));
    await stdio.close().catch(() => {});
    throw error;
  }
  parts.announce(host);
  log(`MCP over stdio ready in ${Math.round(performance.now() - parts.started)} ms`);
  const offHup = reloadOnHangup(host, log);
  await new Promise<void>((resolve) => {
    let closing = false;
    const stop = async (reason: string) => {
      if (closing) return;
      closing = true;
      const report = await host.tracker.drain(settings.server.shutdownTimeoutMs);
      for (const c of report.cancelled) log(`cancelled ${c.tool} at shutdown: ${c.result.message}`);
      await stdio.close().catch(() => {});
      offHup();
      await host.close();
      log(`stopped (${reason})`);
      resolve();
    };
    const off = waitForSignal(
      (name) => void stop(name).then(off),
      () => host.tracker.abortAll("Stopped at once (second signal)."),
    );
    void stdinClosed.then(() => stop("stdin closed").then(off));
  });
  return EXIT.ok;
};
