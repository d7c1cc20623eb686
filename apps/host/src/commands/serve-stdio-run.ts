import { PassThrough } from "node:stream";
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

/** One turn of the event loop: every promise chain already under way has run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Serves MCP over stdin/stdout until stdin closes or a signal comes. The connection opens before the
 * plugins load: an MCP client's `initialize` is answered while they load (the client's half of the
 * handshake overlaps the host's start), and its first tools/list when they are in. A host that fails
 * to start answers those requests with its error, closes the connection and exits with it. When stdin
 * ends, every request read before is answered (calls still running get the shutdown timeout), then
 * the process exits: `printf '<requests>' | quiver serve --stdio` answers them all.
 */
export const serveStdioUntilStopped = async (
  settings: HostSettings,
  parts: StdioServeParts,
): Promise<number> => {
  const { log } = parts;
  const { reserveStdout, serveStdio } = await import("@quiver/mcp/server");
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  // The SDK's transport closes the moment its input ends, and an answer still being made then is
  // lost. It reads a copy of stdin that ends only when the server stops, after those answers are out.
  const input = new PassThrough();
  // Standard output carries the MCP stream alone, from before any plugin loads until the process
  // ends (a plugin's close may print too): a plugin's console.log goes to stderr with the host's log.
  const stdout = reserveStdout();
  process.stdin.pipe(input, { end: false });
  const stdinClosed = new Promise<void>((resolve) => process.stdin.once("end", resolve));
  const hostReady = (async () => {
    // Loading the plugins keeps the thread busy until they are in: first one turn of the event loop,
    // in which the transport reads the client's opening request (sent right after the spawn) and
    // answers it.
    await turn();
    return parts.startHost();
  })();
  // Tasks on the host's store, once it is open; requests for them wait for it.
  const { openTaskRunner, deferredRunner } = await import("../tasks/open-task-runner.js");
  const tasks = deferredRunner(hostReady.then(openTaskRunner));
  const stdio = serveStdio(
    hostReady.then((h) => h.catalog),
    {
      transport: new StdioServerTransport(input, stdout.channel),
      ...(settings.principal !== undefined ? { principal: settings.principal } : {}),
      onError: (e) => log(`mcp: ${e.message}`),
      ...(settings.aliasSets.length > 0 ? { aliasSets: settings.aliasSets } : {}),
      extraTools: hostReady.then((h) => h.profile?.mcpTools() ?? []),
      tasks,
    },
  );
  const closeInput = async () => {
    await stdio.close().catch(() => {});
    process.stdin.unpipe(input);
    // Paused, stdin no longer keeps the process alive (a signal may stop it while the client is there).
    process.stdin.pause();
  };
  let host: Host;
  try {
    host = await hostReady;
  } catch (error) {
    // The requests waiting for the host are answered with its error in the promise chains that
    // follow the rejection: one turn lets every answer out before the connection closes.
    await turn();
    await closeInput();
    throw error;
  }
  parts.announce(host);
  const offHup = reloadOnHangup(host, log);
  const stopped = new Promise<void>((resolve) => {
    let closing = false;
    const stop = async (reason: string) => {
      if (closing) return;
      closing = true;
      // Requests read before now have started (those that waited for the host too): their calls are
      // in the tracker, and the answers of the others are out.
      await turn();
      const report = await host.tracker.drain(settings.server.shutdownTimeoutMs);
      for (const c of report.cancelled) log(`cancelled ${c.tool} at shutdown: ${c.result.message}`);
      await turn();
      await closeInput();
      offHup();
      await tasks.close();
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
  // Said once the signals are handled: a supervisor that stops the server on reading it is heard.
  log(`MCP over stdio ready in ${Math.round(performance.now() - parts.started)} ms`);
  await stopped;
  return EXIT.ok;
};
