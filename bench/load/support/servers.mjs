// Starts the two servers of the load bench as child processes, each preloaded with the probe
// (event-loop delay, heap): `quiver serve` (the built CLI) in a temporary project that depends on the
// fda, context7 and perplexity plugins, pointed at the emulated upstreams; and the bare MCP SDK server.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PERPLEXITY_KEY } from "./workload.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The monorepo root. */
export const REPO = join(HERE, "..", "..", "..");
/** The built `quiver` CLI the bench drives. */
export const CLI = join(REPO, "apps", "host", "dist", "cli.js");
const PLUGINS = ["@quiver/plugin-fda", "@quiver/plugin-context7", "@quiver/plugin-perplexity"];
const PROBE = pathToFileURL(join(HERE, "probe.mjs")).href;

const waitFor = (child, stream, pattern, what) =>
  new Promise((resolve, reject) => {
    let out = "";
    const onData = (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        child.off("close", onClose);
        // From here on the output is drained and dropped (the bench keeps no log of the run).
        child[stream].off("data", onData);
        child[stream].resume();
        resolve(m[1]);
      }
    };
    const onClose = (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${out}`));
    };
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${out}`)), 30_000);
    child[stream].on("data", onData);
    child.on("close", onClose);
  });

/** Stops a child: SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export const stop = (child, graceMs = 15_000) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });

export { cpuMsOf, rssOf } from "../../lib/proc-stats.mjs";

/** The last line the probe wrote, or undefined before its first. */
export const readProbe = (file) => {
  try {
    const lines = readFileSync(file, "utf8").trim().split("\n");
    return JSON.parse(lines.at(-1));
  } catch {
    return undefined;
  }
};

const probeEnv = (dir, probeMs, gc) => ({
  ...(gc ? { QUIVER_LOAD_PROBE_GC: "1" } : {}),
  QUIVER_LOAD_PROBE: join(dir, "probe.jsonl"),
  QUIVER_LOAD_PROBE_MS: String(probeMs),
});

/** A started server as the bench uses it; `close()` stops it and removes its folder. */
const served = (name, child, url, env, dir) => ({
  name,
  url: `${url}/mcp`,
  base: url,
  pid: child.pid,
  probe: env.QUIVER_LOAD_PROBE,
  close: async () => {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  },
});

/**
 * `quiver serve` on a free port, serving the fda, context7 and perplexity plugins against `upstream`,
 * with rate limits off (the emulator has no budget to protect; everything else is the tools' own
 * policy: cache, retry, breaker, timeouts). `nodeFlags` go to node before the CLI (e.g.
 * `--heapsnapshot-signal=SIGUSR2`). Resolves with its MCP URL, pid, probe file and `close()`.
 */
export const startQuiver = async ({ upstream, probeMs, track, nodeFlags = [], gc = false }) => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-load-"));
  for (const name of PLUGINS) {
    const at = join(dir, "node_modules", name);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(join(REPO, "apps", "host", "node_modules", name), at, "dir");
  }
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "quiver-load",
      private: true,
      dependencies: Object.fromEntries(PLUGINS.map((p) => [p, "*"])),
    }),
  );
  writeFileSync(
    join(dir, "quiver.config.json"),
    JSON.stringify({
      plugins: {
        fda: { options: { baseUrl: upstream } },
        context7: { options: { baseUrl: `${upstream}/api` } },
        perplexity: { options: { baseUrl: upstream } },
      },
      policies: { "*": { rateLimit: false } },
    }),
  );
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: "1",
    PERPLEXITY_API_KEY: PERPLEXITY_KEY,
    ...probeEnv(dir, probeMs, gc),
  };
  const child = spawn(process.execPath, [...nodeFlags, "--import", PROBE, CLI, "serve", "--port", "0"], {
    cwd: dir,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  track(child);
  const url = await waitFor(child, "stderr", /serving on (http:\/\/\S+?) /, "quiver serve");
  return served("quiver", child, url, env, dir);
};

/** The bare MCP SDK server (support/bare-server.mjs) against `upstream`. */
export const startBare = async ({ upstream, probeMs, track, nodeFlags = [], gc = false }) => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-load-bare-"));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...probeEnv(dir, probeMs, gc) };
  const child = spawn(
    process.execPath,
    [...nodeFlags, "--import", PROBE, join(HERE, "bare-server.mjs"), upstream],
    {
      cwd: join(REPO, "bench"),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  track(child);
  child.stderr.resume();
  const url = await waitFor(child, "stdout", /listening (http:\/\/\S+)/, "bare MCP server");
  return served("bare", child, url, env, dir);
};
