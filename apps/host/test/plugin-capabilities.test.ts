import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeProject, type Project, runQuiver, startServe } from "./helpers.js";

// The notes fixture (test/fixtures/plugins/notes) declares `setup`, a command and a demo step; the
// host names no plugin, so everything below proves the capabilities reach the CLI with no host change.
let project: Project;
let tmp: string;
beforeAll(() => {
  project = makeProject({ fixtures: ["notes", "echo"] });
  tmp = mkdtempSync(join(tmpdir(), "quiver-notes-"));
  writeFileSync(join(project.dir, "todo.txt"), "buy tea\n\nfix the bike\n");
  writeFileSync(join(project.dir, "empty.txt"), "\n");
});
afterAll(() => {
  project?.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

const q = (args: string[], env: Record<string, string> = {}) => runQuiver(args, { cwd: project.dir, env });
const logLines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("plugin commands", () => {
  it("appear in quiver --help and quiver <plugin> --help", async () => {
    const root = await q(["--help"]);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/Plugin commands\n\s+notes add\s+Add the lines of text files to the notes/);
    const plugin = await q(["notes", "--help"]);
    expect(plugin.code).toBe(0);
    expect(plugin.stdout).toMatch(/add\s+Add the lines of text files/);
    const cmd = await q(["notes", "add", "--help"]);
    expect(cmd.code).toBe(0);
    expect(cmd.stdout).toContain("quiver notes add --tag <tag> [options] <files…>");
    expect(cmd.stdout).toContain("Every non-empty line becomes a note");
    expect(cmd.stdout).toMatch(/--tag <tag>\s+Tag of the new notes \(required\)/);
    expect(cmd.stdout).toMatch(/--dry-run\s+Count the notes/);
    expect(cmd.stdout).toContain("quiver notes add todo.txt --tag home");
  });

  it("runs with options, positionals and progress; setup opens the store once and it is closed after", async () => {
    const log = join(tmp, "command.log");
    const store = join(tmp, "command-store.txt");
    const r = await q(["notes", "add", "todo.txt", "--tag", "home"], { NOTES_LOG: log, NOTES_STORE: store });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("added 2 notes from 1 files\n");
    expect(r.stderr).toMatch(/notes add: 1\/1 .*todo\.txt/);
    expect(readFileSync(store, "utf8")).toBe("[home] buy tea\n[home] fix the bike\n");
    expect(logLines(log)).toEqual([`open ${store}`, "close"]);
    const searched = await q(["call", "notes_search", "--input", '{"query":"bike"}', "--json"], {
      NOTES_STORE: store,
    });
    expect(JSON.parse(searched.stdout).data.notes).toEqual(["[home] fix the bike"]);
  });

  it("prints one JSON document and no progress with --json", async () => {
    const r = await q(["notes", "add", "todo.txt", "--tag", "x", "--dry-run", "--json"], {
      NOTES_STORE: join(tmp, "json-store.txt"),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ added: 2, files: 1, dryRun: true });
    expect(r.stderr).not.toContain("notes add:");
  });

  it("exits 1 when the command did nothing or failed", async () => {
    const env = { NOTES_STORE: join(tmp, "fail-store.txt") };
    const empty = await q(["notes", "add", "empty.txt", "--tag", "x"], env);
    expect(empty.code).toBe(1);
    const folder = await q(["notes", "add", "node_modules", "--tag", "x"], env);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/error: .*node_modules is a folder, not a text file\./);
  });

  it("exits 2 with a usage line for wrong calls", async () => {
    const env = { NOTES_STORE: join(tmp, "usage-store.txt") };
    const noTag = await q(["notes", "add", "todo.txt"], env);
    expect(noTag.code).toBe(2);
    expect(noTag.stderr).toContain("quiver notes add needs --tag.");
    expect(noTag.stderr).toContain("usage: quiver notes add --tag <tag> [options] <files…>");
    const tooMany = await q(["notes", "add", "a", "b", "c", "d", "--tag", "x"], env);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/takes 1-3 arguments \(<files…>\), got 4/);
    const none = await q(["notes", "add", "--tag", "x"], env);
    expect(none.code).toBe(2);
    const unknownFlag = await q(["notes", "add", "todo.txt", "--tag", "x", "--colour"], env);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toMatch(/Unknown option '--colour'/);
    const wrongType = await q(["notes", "add", "todo.txt", "--tag"], env);
    expect(wrongType.code).toBe(2);
    const missingFile = await q(["notes", "add", "nope.txt", "--tag", "x"], env);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toMatch(/nope\.txt does not exist\.\nGive files that exist\./);
  });

  it("aborts the command's signal on Ctrl-C and closes what setup opened", async () => {
    const log = join(tmp, "interrupt.log");
    const child = spawn(process.execPath, [CLI, "notes", "wait"], {
      cwd: project.dir,
      env: cleanEnv({ NOTES_LOG: log, NOTES_STORE: join(tmp, "interrupt-store.txt") }),
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (d) => {
        stdout += d;
        if (stdout.includes("waiting")) resolve();
      }),
    );
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    expect(stdout).toBe("waiting\nstopped: Interrupted (Ctrl-C).\n");
    expect(stderr).toContain("interrupted: stopping");
    expect(logLines(log)).toEqual([`open ${join(tmp, "interrupt-store.txt")}`, "close"]);
  });

  it("suggests the closest command or plugin for an unknown word, exit 2", async () => {
    const cmd = await q(["notes", "ad"]);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('the notes plugin has no command "ad". Did you mean "add"?');
    const plugin = await q(["note", "add"]);
    expect(plugin.code).toBe(2);
    expect(plugin.stderr).toContain('unknown command "note". Did you mean "notes"?');
    const bare = await q(["notes"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('"quiver notes" needs a command.');
    const noCommands = await q(["echo", "x"]);
    expect(noCommands.code).toBe(2);
    expect(noCommands.stderr).toContain("the echo plugin has no commands");
  });
});

describe("plugin demo steps", () => {
  it("seed the store in demo mode, build once and are reused on the next start", async () => {
    const cache = join(tmp, "demo-cache");
    const env = { QUIVER_CACHE_DIR: cache };
    const args = ["call", "notes_search", "--input", '{"query":"tea"}', "--json", "--demo"];
    const first = await q(args, env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/notes: built the demo notes at .*demo-cache\/notes\/notes\.txt for demo/);
    expect(JSON.parse(first.stdout).data.notes).toEqual([
      "[demo] Tea leaves keep longer in a dark, dry tin.",
    ]);
    const second = await q(args, env);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/notes: reused the demo notes at /);
    expect(JSON.parse(second.stdout).data.notes).toHaveLength(1);
  });

  it("are skipped when the user chose their own store, and a failing step serves the plugin without demo data", async () => {
    const store = join(tmp, "own-store.txt");
    writeFileSync(store, "my own tea note\n");
    const own = await q(["call", "notes_search", "--input", '{"query":"tea"}', "--json", "--demo"], {
      NOTES_STORE: store,
      QUIVER_CACHE_DIR: join(tmp, "demo-cache-2"),
    });
    expect(own.stderr).toContain("notes: NOTES_STORE set, so the demo leaves its store alone");
    expect(JSON.parse(own.stdout).data.notes).toEqual(["my own tea note"]);
    const failing = await q(["call", "notes_search", "--input", '{"query":"tea"}', "--json", "--demo"], {
      NOTES_DEMO_FAIL: "1",
      QUIVER_CACHE_DIR: join(tmp, "demo-cache-3"),
    });
    expect(failing.code).toBe(0);
    expect(failing.stderr).toContain(
      "notes: the demo step failed (the demo data is unreadable); it serves its own settings",
    );
    expect(JSON.parse(failing.stdout).data.notes).toEqual([]);
  });
});

describe("quiver doctor", () => {
  it("lists a plugin's commands and whether its demo data is there", async () => {
    const r = await q(["doctor", "--json", "--offline"], { NOTES_STORE: join(tmp, "doctor-store.txt") });
    const notes = JSON.parse(r.stdout).plugins.find((p: { id: string }) => p.id === "notes");
    expect(notes.commands).toEqual(["add", "wait"]);
    expect(notes.demoData).toEqual([
      { path: expect.stringMatching(/notes\/demo\/notes\.txt$/), present: true },
    ]);
    const text = await q(["doctor", "--offline"]);
    expect(text.stdout).toContain("commands: quiver notes add, quiver notes wait");
    expect(text.stdout).toContain("demo data: 1 present");
  });
});

describe("plugin setup", () => {
  it("opens the resources once for every call of a served plugin and closes them on shutdown", async () => {
    const log = join(tmp, "serve.log");
    const store = join(tmp, "serve-store.txt");
    writeFileSync(store, "served tea\n");
    const s = await startServe([], { cwd: project.dir, env: { NOTES_LOG: log, NOTES_STORE: store } });
    const call = async () =>
      (await (
        await fetch(`${s.url}/tools/notes_search/call`, {
          method: "POST",
          body: JSON.stringify({ query: "tea" }),
        })
      ).json()) as { status: string; data: { notes: string[] } };
    const answers = await Promise.all([call(), call(), call()]);
    for (const a of answers) expect(a.data.notes).toEqual(["served tea"]);
    expect(logLines(log)).toEqual([`open ${store}`]);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    expect(logLines(log)).toEqual([`open ${store}`, "close"]);
  });
});
