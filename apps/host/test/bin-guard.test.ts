import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/index.js";
import { HOST_DIR } from "./helpers.js";

const exec = promisify(execFile);
const BIN = join(HOST_DIR, "bin", "quiver.js");

/** A Node older than 22.19 on this machine (the system's, when the repo runs on a fetched Node 24). */
const oldNode = ["/usr/bin/node", "/usr/local/bin/node"].find((p) => {
  if (!existsSync(p)) return false;
  const [major = 0, minor = 0] = execFileSync(p, ["-p", "process.versions.node"], { encoding: "utf8" })
    .trim()
    .split(".")
    .map(Number);
  return major < 22 || (major === 22 && minor < 19);
});
if (!oldNode) console.log("skipped: no Node older than 22.19 on this machine for the bin guard's refusal");

const run = async (node: string, args: string[]) => {
  try {
    const { stdout, stderr } = await exec(node, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
};

describe("bin/quiver.js, the Node version guard", () => {
  it("runs the CLI on this Node", async () => {
    const r = await run(process.execPath, ["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it.runIf(oldNode)("on an older Node says what to do and exits 1, before importing anything", async () => {
    const r = await run(oldNode!, ["list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/quiver needs Node\.js 22\.19 or newer; this is Node\.js \d+\./);
    expect(r.stderr).toContain("npx -y -p node@24 -p @quiver/host quiver <command>");
    expect(r.stderr).not.toMatch(/SyntaxError|ERR_/);
    expect(r.stdout).toBe("");
  });
});
