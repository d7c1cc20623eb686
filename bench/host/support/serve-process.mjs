// Starts `quiver serve` or the bare MCP SDK server as a child process and waits until it listens.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REPO = join(HERE, "..", "..");
export const CLI = join(REPO, "apps", "host", "dist", "cli.js");
export const NOOP_PLUGIN = join(HERE, "fixtures", "noop-plugin");

const waitFor = (child, stream, pattern, what) =>
  new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${out}`)), 30_000);
    child[stream].on("data", (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("close", (code) => reject(new Error(`${what} exited with ${code}:\n${out}`)));
  });

export { cpuMsOf, rssOf } from "../../lib/proc-stats.mjs";

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("close", () => resolve());
    child.kill("SIGTERM");
  });

/**
 * `quiver serve` on a free port. `plugins: "noop"` serves only the benchmark's trivial tool (plus
 * quiver_find_tools); `plugins: "all"` serves every first-party plugin the host app depends on.
 */
export const startQuiver = async ({ plugins = "noop" } = {}) => {
  const project = mkdtempSync(join(tmpdir(), "quiver-bench-"));
  const config =
    plugins === "noop"
      ? { discover: false, load: [NOOP_PLUGIN] }
      : { projects: [join(REPO, "apps", "host")], load: [NOOP_PLUGIN] };
  writeFileSync(join(project, "quiver.config.json"), JSON.stringify(config));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "bench", private: true }));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" };
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0"], { cwd: project, env });
  const url = await waitFor(child, "stderr", /serving on (http:\/\/\S+?) /, "quiver serve");
  return {
    url: `${url}/mcp`,
    pid: child.pid,
    close: async () => {
      await stop(child);
      rmSync(project, { recursive: true, force: true });
    },
  };
};

/** The bare MCP SDK server with the same trivial tool. */
export const startBare = async () => {
  const child = spawn(process.execPath, [join(HERE, "support", "bare-mcp-server.mjs")], {
    cwd: join(REPO, "bench"),
  });
  const url = await waitFor(child, "stdout", /listening (http:\/\/\S+)/, "bare MCP server");
  return { url: `${url}/mcp`, pid: child.pid, close: () => stop(child) };
};
