import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandWord } from "../src/cli/compile-cache.js";
import { CLI, cleanEnv, makeProject, type Project, startServe } from "./helpers.js";

describe("commandWord", () => {
  it("skips options and the values of global options that take one", () => {
    expect(commandWord(["serve", "--port", "0"])).toBe("serve");
    expect(commandWord(["--cwd", "serve", "list", "--json"])).toBe("list");
    expect(commandWord(["--json", "--config", "x.json", "serve"])).toBe("serve");
    expect(commandWord(["--demo", "fda", "search"])).toBe("fda");
    expect(commandWord(["--help"])).toBeUndefined();
    expect(commandWord(["--", "serve"])).toBeUndefined();
  });
});

// Node puts the cache in <os.tmpdir()>/node-compile-cache: a TMPDIR of the test's own shows whether
// the command asked for it.
describe("Node's compile cache", () => {
  let project: Project;
  let tmp: string;
  beforeAll(() => {
    project = makeProject({ fixtures: ["echo"] });
  });
  afterAll(() => project?.cleanup());
  const cacheDir = () => join(tmp, "node-compile-cache");
  const env = () => {
    tmp = mkdtempSync(join(tmpdir(), "quiver-cc-"));
    return cleanEnv({ TMPDIR: tmp });
  };
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });

  it("is filled by a short command such as quiver list", () => {
    try {
      const r = spawnSync(process.execPath, [CLI, "list", "--json"], { cwd: project.dir, env: env() });
      expect(r.status).toBe(0);
      expect(existsSync(cacheDir())).toBe(true);
      expect(readdirSync(cacheDir()).length).toBeGreaterThan(0);
    } finally {
      cleanup();
    }
  });

  it("is filled by quiver serve --stdio (an MCP client waits for it at every launch)", async () => {
    try {
      const child = spawn(process.execPath, [CLI, "serve", "--stdio"], { cwd: project.dir, env: env() });
      let stderr = "";
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (d) => {
          stderr += d;
          if (/MCP over stdio ready/.test(stderr)) resolve();
        });
        child.on("close", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      child.stdin.end();
      await new Promise((resolve) => child.on("close", resolve));
      expect(existsSync(cacheDir())).toBe(true);
    } finally {
      cleanup();
    }
  });

  it("is left alone by the HTTP quiver serve (a long-lived shared server would hold it in memory)", async () => {
    try {
      tmp = mkdtempSync(join(tmpdir(), "quiver-cc-"));
      const serve = await startServe([], { cwd: project.dir, env: { TMPDIR: tmp } });
      serve.child.kill("SIGTERM");
      await serve.exited;
      expect(existsSync(cacheDir())).toBe(false);
    } finally {
      cleanup();
    }
  });
});
