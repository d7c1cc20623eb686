import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Emulator, loadJson, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/commands/index.js";
import { VERSION } from "../src/index.js";
import { HOST_DIR, makeProject, type Project, runQuiver } from "./helpers.js";

let project: Project;
let broken: Project;
let fda: Project;
let up: Emulator;

beforeAll(async () => {
  project = makeProject({ fixtures: ["echo", "needs-key"] });
  broken = makeProject({ fixtures: ["echo", "needs-key", "broken"] });
  fda = makeProject({ workspace: ["@quiver/plugin-fda"] });
  up = await startEmulator();
  up.route("GET", "/drug/drugsfda.json", {
    json: loadJson(join(HOST_DIR, "test", "fixtures", "openfda", "drugsfda_tirzepatide_limit1.json")),
  });
});
afterAll(async () => {
  project?.cleanup();
  broken?.cleanup();
  fda?.cleanup();
  await up?.close();
});

const q = (args: string[], opts: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}) =>
  runQuiver(args, {
    cwd: opts.cwd ?? project.dir,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.stdin ? { stdin: opts.stdin } : {}),
  });

describe("help and usage errors", () => {
  it("prints help for the root and for every command, exit 0", async () => {
    const root = await q(["--help"]);
    expect(root.code).toBe(0);
    for (const c of COMMANDS) expect(root.stdout).toContain(c.name);
    const runs = await Promise.all(COMMANDS.map((c) => q([...c.name.split(" "), "--help"])));
    runs.forEach((r, i) => {
      expect(r.code, COMMANDS[i]!.name).toBe(0);
      expect(r.stdout).toContain(`quiver ${COMMANDS[i]!.name}`);
      expect(r.stdout).toContain("Usage");
      expect(r.stdout).toContain("--json");
    });
  });

  it("answers no command, an unknown command or flag, and a missing argument with exit 2", async () => {
    expect((await q([])).code).toBe(2);
    const unknown = await q(["lsit"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "lsit"');
    const flag = await q(["list", "--jsno"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/Unknown option '--jsno'/);
    expect(flag.stderr).toContain("usage: quiver list");
    const missing = await q(["describe"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/takes 1 argument \(<tool>\), got 0/);
    expect(unknown.stderr).toContain('Did you mean "list"');
  });

  it("prints its version", async () => {
    const r = await q(["--version"]);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it("reports a config error naming the file and key, exit 2", async () => {
    const p = makeProject({
      fixtures: ["echo"],
      config: { name: "quiver.config.json", text: '{"server":{"port":"x"}}' },
    });
    try {
      const r = await q(["list"], { cwd: p.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/config error: quiver\.config\.json: server\.port: /);
    } finally {
      p.cleanup();
    }
  });
});

describe("quiver list", () => {
  it("lists plugins, their tools and unconfigured plugins readably", async () => {
    const r = await q(["list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/echo quiver-plugin-echo@1\.2\.0 ready/);
    expect(r.stdout).toMatch(/echo_text\s+computational_service\s+Echoes the text it is given\./);
    expect(r.stdout).toMatch(/needs-key .* unconfigured/);
    expect(r.stdout).toContain("KEYED_API_KEY is not set");
    expect(r.stdout).toMatch(/tools from 3 plugins \(2 ready, 1 unconfigured\)/);
  });

  it("prints JSON for scripts, skipped plugins included, and exits 1 for the skipped one", async () => {
    const r = await q(["list", "--json"], { cwd: broken.dir });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(["echo_text", "echo_whoami", "keyed_lookup", "quiver_find_tools"]),
    );
    expect(out.plugins.find((p: { id: string }) => p.id === "needs-key")).toMatchObject({
      status: "unconfigured",
      missing: ["KEYED_API_KEY"],
    });
    expect(out.problems[0]).toMatchObject({ package: "quiver-plugin-broken", kind: "import_failed" });
    expect(r.stderr).toMatch(/skipped quiver-plugin-broken: importing quiver-plugin-broken failed/);
    expect(r.stderr).toMatch(/fix: Reinstall quiver-plugin-broken/);
  });

  it("honours --disable and --category", async () => {
    const r = await q(["list", "--json", "--disable", "needs-key", "--category", "discovery"]);
    const out = JSON.parse(r.stdout);
    expect(out.tools.map((t: { name: string }) => t.name)).toEqual(["quiver_find_tools"]);
    expect(out.disabled).toEqual(["needs-key"]);
  });
});

describe("quiver describe", () => {
  it("shows description, schema, examples as runnable commands and the policy", async () => {
    const r = await q(["describe", "echo_slow_wait"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("echo_slow_wait (echo, computational_service)");
    expect(r.stdout).toContain("Input schema (mcp)");
    expect(r.stdout).toContain("How long to wait");
    expect(r.stdout).toContain(`quiver call echo_slow_wait --input '{"ms":10}'`);
    expect(r.stdout).toContain("Policy");
  });

  it("prints JSON with the schema for a target, and refuses an unknown tool with a suggestion", async () => {
    const r = await q(["describe", "echo_text", "--json", "--target", "openai"]);
    const d = JSON.parse(r.stdout);
    expect(d.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
      additionalProperties: false,
    });
    const bad = await q(["describe", "echo_txt"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/There is no tool named "echo_txt"\. Did you mean "echo_text"/);
    const target = await q(["describe", "echo_text", "--target", "llama"]);
    expect(target.code).toBe(2);
  });
});

describe("quiver call", () => {
  it("prints the envelope as JSON with --json, exit 0 on success", async () => {
    const r = await q(["call", "echo_text", "--input", '{"text":"hi"}', "--json"]);
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env).toMatchObject({ status: "success", data: { text: "hi" }, message: "Echoed 2 characters." });
    expect(env.metadata).toMatchObject({ tool: "echo_text", plugin: "echo" });
  });

  it("prints it readably on a terminal-less run without --json", async () => {
    const r = await q(["call", "echo_text", "-i", '{"text":"hello"}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^success Echoed 5 characters\./);
    expect(r.stdout).toContain("text: 'hello'");
    expect(r.stdout).toMatch(/echo_text \(echo\) · \d+ ms · 1 attempt/);
  });

  it("reads the input from a file or from stdin", async () => {
    const file = join(project.dir, "input.json");
    writeFileSync(file, '{"text":"from a file"}');
    const a = await q(["call", "echo_text", "--input-file", file, "--json"]);
    expect(JSON.parse(a.stdout).data.text).toBe("from a file");
    const b = await q(["call", "echo_text", "--input-file", "-", "--json"], {
      stdin: '{"text":"from stdin"}',
    });
    expect(JSON.parse(b.stdout).data.text).toBe("from stdin");
    const c = await q(["call", "echo_text", "--input-file", join(project.dir, "nope.json")]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("no such file");
  });

  it("exits 2 for input that is not JSON, quoting where it broke", async () => {
    const r = await q(["call", "echo_text", "--input", '{"text": hi}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--input is not valid JSON/);
    expect(r.stderr).toContain('{"text": hi}');
    expect(r.stderr).toContain("Give the input as a JSON object");
  });

  it("exits 1 for error statuses and prints what to do", async () => {
    const invalid = await q(["call", "echo_text", "--input", '{"text": 5}', "--json"]);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ status: "error", error: { kind: "invalid_input" } });
    const failed = await q(["call", "echo_fail"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^error /);
    expect(failed.stdout).toContain("suggestion Try echo_text instead.");
    const unconfigured = await q(["call", "keyed_lookup", "--input", '{"q":"x"}', "--json"]);
    expect(unconfigured.code).toBe(1);
    expect(JSON.parse(unconfigured.stdout)).toMatchObject({ status: "unavailable" });
    expect(JSON.parse(unconfigured.stdout).message).toContain("KEYED_API_KEY");
  });

  it("serves a plugin once its key is set in the environment", async () => {
    const r = await q(["call", "keyed_lookup", "--input", '{"q":"x"}', "--json"], {
      env: { KEYED_API_KEY: "k-123" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("k-123");
  });

  it("exits 2 for an unknown tool, suggesting the closest names", async () => {
    const r = await q(["call", "echo_texts", "--input", "{}"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Did you mean "echo_text"/);
  });

  it("calls as the principal given, and reports progress lines off a terminal", async () => {
    const who = await q(["call", "echo_whoami", "--json", "--principal", "alice", "--session", "s-9"]);
    expect(JSON.parse(who.stdout).data).toEqual({ principal: "alice", session: "s-9" });
    const env = await q(["call", "echo_whoami", "--json"], { env: { QUIVER_PRINCIPAL: "bob" } });
    expect(JSON.parse(env.stdout).data.principal).toBe("bob");
    const slow = await q(["call", "echo_slow_wait", "--input", '{"ms":40}']);
    expect(slow.code).toBe(0);
    expect(slow.stderr).toMatch(/echo_slow_wait: 4\/4 step 4/);
  });

  it("calls a real plugin against the emulated upstream, with options from --set", async () => {
    const r = await q(
      [
        "call",
        "fda_search_drugs",
        "--input",
        '{"search_criteria":{"active_ingredient":"tirzepatide"},"max_results":1}',
        "--json",
        "--set",
        `fda.baseUrl=${up.url}`,
      ],
      { cwd: fda.dir },
    );
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env.status).toMatch(/success|partial/);
    expect(env.data.matches.length).toBe(1);
    expect(up.requests.some((x) => x.path === "/drug/drugsfda.json")).toBe(true);
  });
});

describe("quiver find", () => {
  it("ranks the tools for a need, readable and JSON", async () => {
    const r = await q(["find", "echo", "the", "text", "back"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^1\.\s+echo_text/);
    const j = await q(["find", "which principal is the caller", "--json", "--limit", "1"]);
    expect(JSON.parse(j.stdout).tools.map((t: { name: string }) => t.name)).toEqual(["echo_whoami"]);
  });

  it("exits 1 when nothing matches and 2 for a bad limit", async () => {
    expect((await q(["find", "zzzz qqqq"])).code).toBe(1);
    expect((await q(["find", "echo", "--limit", "0"])).code).toBe(2);
  });
});

describe("quiver doctor", () => {
  it("reports loaded, unconfigured and broken plugins with what to do, exit 1 when one is broken", async () => {
    const r = await q(["doctor", "--json"], { cwd: broken.dir });
    expect(r.code).toBe(1);
    const d = JSON.parse(r.stdout);
    expect(d.ok).toBe(false);
    expect(d.plugins.find((p: { id: string }) => p.id === "echo")).toMatchObject({
      loaded: true,
      configured: true,
      ok: true,
    });
    expect(d.plugins.find((p: { id: string }) => p.id === "needs-key")).toMatchObject({
      configured: false,
      ok: false,
    });
    expect(d.plugins.find((p: { id: string }) => p.id === "needs-key").fix).toContain("KEYED_API_KEY");
    expect(d.skipped[0]).toMatchObject({
      package: "quiver-plugin-broken",
      loaded: false,
      kind: "import_failed",
    });
    const text = await q(["doctor"], { cwd: broken.dir });
    expect(text.stdout).toMatch(/✗ quiver-plugin-broken not loaded \(import_failed\)/);
    expect(text.stdout).toMatch(/! needs-key .*unconfigured/);
    expect(text.stdout).toMatch(/fix: Set KEYED_API_KEY/);
  });

  it("exits 0 when every configured plugin is healthy", async () => {
    const r = await q(["doctor"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ echo/);
  });

  it("checks a real upstream (the emulator) and reports an unreachable one", async () => {
    const ok = await q(["doctor", "--json", "--set", `fda.baseUrl=${up.url}`], { cwd: fda.dir });
    expect(JSON.parse(ok.stdout).plugins.find((p: { id: string }) => p.id === "fda")).toMatchObject({
      ok: true,
    });
    const down = await q(["doctor", "--json", "--set", "fda.baseUrl=http://127.0.0.1:9"], { cwd: fda.dir });
    expect(down.code).toBe(1);
    const fdaCheck = JSON.parse(down.stdout).plugins.find((p: { id: string }) => p.id === "fda");
    expect(fdaCheck.ok).toBe(false);
    expect(fdaCheck.fix).toBeTruthy();
  });
});
