import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PLUGINS, CLI, cleanEnv, makeProject, type Project, runQuiver } from "./helpers.js";

// Every example printed by `quiver --help`, `quiver <command> --help` and
// `quiver <plugin> <command> --help` is run as a shell command against the built CLI, in a project
// with every workspace plugin installed (no config aliases), so an example naming a tool that
// does not exist fails here instead of in a user's terminal.

const PLUGINS = ALL_PLUGINS;

let project: Project;
let up: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  // An emulator with no routes: every upstream answers 404 at once, so the examples finish quickly
  // and offline. Only the tool names and flags of the examples are under test.
  up = await startEmulator();
  const options = { options: { baseUrl: up.url } };
  project = makeProject({
    workspace: PLUGINS,
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        plugins: {
          fda: options,
          context7: options,
          perplexity: options,
          // alphafold has no baseUrl: an unknown option stops the host (it was silently ignored).
          alphafold: { options: { alphafoldUrl: up.url, esmfoldUrl: up.url, uniprotUrl: up.url } },
        },
      }),
    },
  });
  const bin = join(project.dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "quiver"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, "quiver"), 0o755);
  env = cleanEnv({ PATH: `${bin}:${process.env.PATH ?? ""}` });
});
afterAll(async () => {
  project?.cleanup();
  await up?.close();
});

/** The lines under a bold section title (e.g. "Examples") of a help text, up to the next blank line. */
const section = (help: string, title: string): string[] => {
  const lines = help.split("\n");
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.trim()) break;
    out.push(line.trim());
  }
  return out;
};

/**
 * Runs one example in `sh`. `quiver serve` examples run until they print that they serve (or exit),
 * then are stopped; a fixed port in an example is replaced by 0 so the run never collides.
 */
const runExample = (example: string): Promise<{ code: number | null; output: string; served: boolean }> =>
  new Promise((resolve, reject) => {
    const serves = /\bquiver serve\b/.test(example);
    const command = example.replace(/QUIVER_PORT=\d+/g, "QUIVER_PORT=0");
    const child = spawn("sh", ["-c", command], { cwd: project.dir, env, detached: true });
    let output = "";
    let served = false;
    const onData = (d: Buffer) => {
      output += d;
      if (serves && !served && /serving on|over stdio ready/.test(output)) {
        served = true;
        process.kill(-child.pid!, "SIGTERM");
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output, served }));
    // `--stdio` serves until its input ends; keep it open until the banner is seen.
    if (!serves) child.stdin.end();
  });

const collectExamples = async (): Promise<Array<{ help: string; example: string }>> => {
  const root = await runQuiver(["--help"], { cwd: project.dir, env });
  expect(root.code).toBe(0);
  const commands = section(root.stdout, "Commands").map((l) => l.split(/\s{2,}/)[0]!);
  const pluginCommands = section(root.stdout, "Plugin commands").map((l) => l.split(/\s{2,}/)[0]!);
  expect(commands).toContain("call");
  expect(pluginCommands.length).toBeGreaterThan(0);
  const found = section(root.stdout, "Examples").map((example) => ({ help: "quiver --help", example }));
  for (const name of [...commands, ...pluginCommands]) {
    const help = await runQuiver([...name.split(" "), "--help"], { cwd: project.dir, env });
    expect(help.code, `quiver ${name} --help`).toBe(0);
    for (const example of section(help.stdout, "Examples")) {
      found.push({ help: `quiver ${name} --help`, example });
    }
  }
  return found;
};

describe("the examples in --help", () => {
  it("name tools, commands and options that exist", async () => {
    const examples = await collectExamples();
    expect(examples.some((e) => e.example.includes("quiver call"))).toBe(true);
    for (const { help, example } of examples) {
      const r = await runExample(example);
      const where = `${help}: ${example}\n${r.output}`;
      expect(r.output, where).not.toContain("There is no tool named");
      expect(r.output, where).not.toMatch(/unknown command|Unknown option|usage: quiver/);
      if (/\bquiver serve\b/.test(example)) expect(r.served, where).toBe(true);
    }
  }, 120_000);
});
