import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ALL_PLUGINS, CLI, cleanEnv, makeProject } from "./helpers.js";

/** Runs the built `quiver` with a stdout whose reader is gone before anything is written to it. */
const runWithClosedStdout = (args: ReadonlyArray<string>, cwd: string) =>
  new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv() });
    // `quiver list | head -0`: the reading end closes at once.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.end();
  });

describe("a closed stdout (quiver list | head)", () => {
  it("ends quietly with the command's own exit code, no EPIPE stack trace", async () => {
    const project = makeProject({ workspace: ALL_PLUGINS });
    try {
      for (const args of [["list", "--no-demo"], ["list", "--json", "--no-demo"], ["--help"]]) {
        const r = await runWithClosedStdout(args, project.dir);
        expect(r.stderr, args.join(" ")).not.toMatch(/EPIPE|Unhandled 'error' event|at /);
        // `list` exits 1 when a plugin is skipped (unconfigured plugins are listed, not skipped).
        expect([0, 1], args.join(" ")).toContain(r.code);
      }
    } finally {
      project.cleanup();
    }
  });
});
