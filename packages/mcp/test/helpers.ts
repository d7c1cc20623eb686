import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Node flags that let a child process run this repository's TypeScript sources. */
export const TS_NODE_ARGS = [
  "--no-warnings",
  "--experimental-transform-types",
  "--conditions=@quiver/source",
  "--import",
  fileURLToPath(new URL("./fixtures/register-ts.mjs", import.meta.url)),
];

/** The stdio server fixture's path. */
export const STDIO_SERVER = fileURLToPath(new URL("./fixtures/stdio-server.ts", import.meta.url));

/** The package directory (cwd for spawned children). */
export const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

/** How to spawn the stdio fixture (a catalog with the test plugin): an MCP target's command, args and cwd. */
export const QUIVER_STDIO: { command: string; args: string[]; cwd: string } = {
  command: process.execPath,
  args: [...TS_NODE_ARGS, STDIO_SERVER],
  cwd: PACKAGE_DIR,
};

/** The real MCP reference server from npm (@modelcontextprotocol/server-everything), run with node over stdio. */
export const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);

/** Listens on 127.0.0.1 with an ephemeral port; returns the base URL and a closer. */
export const listen = async (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string; close: () => Promise<void> }> => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * An upstream whose /slow endpoint never answers. It records each request and whether its socket
 * was closed by the client before a response was sent: what a cancelled call must cause.
 */
export const startHangingUpstream = async () => {
  const seen: Array<{ tag: string | null; closedByClient: boolean }> = [];
  const waiters: Array<() => void> = [];
  const up = await listen((req, res) => {
    const entry = { tag: new URL(req.url ?? "/", "http://x").searchParams.get("tag"), closedByClient: false };
    seen.push(entry);
    for (const w of waiters.splice(0)) w();
    res.on("close", () => {
      if (!res.writableFinished) entry.closedByClient = true;
      for (const w of waiters.splice(0)) w();
    });
    // never answers
  });
  /** Resolves when `predicate` holds (checked after each request or close), or rejects after `ms`. */
  const until = (predicate: () => boolean, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("timed out waiting for the upstream")), ms);
      const check = () => {
        if (predicate()) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { ...up, seen, until };
};

/** Polls until `predicate` is true or `ms` passed. */
export const eventually = async (predicate: () => boolean, ms = 10_000, step = 20): Promise<void> => {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, step));
  }
};

/** Pids of this process's direct children whose command line contains `marker` (spawned MCP servers). */
export const childPids = async (marker: string): Promise<number[]> => {
  const { readFile, readdir } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (ppid === process.pid && cmd.includes(marker)) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
};
