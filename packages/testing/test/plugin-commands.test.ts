import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandUsageError, definePlugin, defineTool } from "@quiver/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runPluginCommand, seedPluginDemo } from "../src/index.js";

const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), "quiver-cmd-"));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const events: string[] = [];

/** A plugin whose setup opens a "notebook" file, with a command that appends to it and a demo step. */
const notebook = definePlugin({
  specificationVersion: "v1",
  id: "notebook",
  version: "1.0.0",
  config: z.object({ file: z.string(), greeting: z.string().default("hi") }),
  setup: async ({ config, onClose }) => {
    events.push("setup");
    onClose(() => {
      events.push("close");
    });
    return { append: (line: string) => writeFile(config.file, `${line}\n`, { flag: "a" }) };
  },
  tools: [
    defineTool({
      name: "notebook_echo",
      description: "Echoes its input.",
      category: "computational_service",
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
      run: async ({ text }) => ({ text }),
    }),
  ],
  commands: [
    {
      name: "add",
      summary: "Adds lines to the notebook.",
      positionals: { min: 1, names: "<lines…>" },
      run: async (ctx) => {
        const { append } = ctx.resources as { append: (l: string) => Promise<void> };
        if (ctx.args.includes("bad")) throw new CommandUsageError("bad is not a line", "give another line");
        let done = 0;
        for (const line of ctx.args) {
          await append(`${(ctx.config as { greeting: string }).greeting} ${line}`);
          ctx.progress(++done, ctx.args.length, line);
        }
        ctx.print(`added ${done} lines`);
        ctx.printJson({ added: done });
        return 0;
      },
    },
  ],
  demo: {
    data: ["notes.txt"],
    seed: async (ctx) => {
      const entry = ctx.cached("notebook.txt", {
        tag: "notebook@1.0.0",
        files: [join(ctx.cacheDir, "..", "input.txt")],
      });
      if (!entry.fresh) {
        await writeFile(entry.path, `built for ${ctx.principal}\n`);
        await entry.markFresh();
      }
      return { options: { file: entry.path }, message: entry.fresh ? "reused" : "built" };
    },
  },
});

describe("runPluginCommand", () => {
  it("runs setup, the command with resolved settings, then closes what setup opened", async () => {
    const file = join(await tempDir(), "notes.txt");
    events.length = 0;
    const run = await runPluginCommand(notebook, "add", {
      args: ["one", "two"],
      options: { file },
      env: {},
    });
    expect(run.exitCode).toBe(0);
    expect(await readFile(file, "utf8")).toBe("hi one\nhi two\n");
    expect(run.lines).toEqual(["added 2 lines"]);
    expect(run.json).toEqual([{ added: 2 }]);
    expect(run.progress.map((p) => p.done)).toEqual([1, 2]);
    expect(events).toEqual(["setup", "close"]);
  });

  it("prints nothing for people in JSON mode and passes a usage error through", async () => {
    const file = join(await tempDir(), "notes.txt");
    const run = await runPluginCommand(notebook, "add", { args: ["x"], options: { file }, json: true });
    expect(run.lines).toEqual([]);
    expect(run.json).toEqual([{ added: 1 }]);
    await expect(
      runPluginCommand(notebook, "add", { args: ["bad"], options: { file } }),
    ).rejects.toMatchObject({
      name: "CommandUsageError",
      hint: "give another line",
    });
  });

  it("names the commands a plugin has when asked for a missing one", async () => {
    await expect(runPluginCommand(notebook, "remove")).rejects.toThrow(
      /has no command "remove" \(it has: add\)/,
    );
  });
});

describe("seedPluginDemo", () => {
  it("builds once, reuses the build while the inputs are unchanged, rebuilds when they change", async () => {
    const root = await tempDir();
    const input = join(root, "input.txt");
    await writeFile(input, "v1");
    const cacheDir = join(root, "cache");
    const first = await seedPluginDemo(notebook, { cacheDir, principal: "ana" });
    expect(first.message).toBe("built");
    expect(await readFile(first.options.file as string, "utf8")).toBe("built for ana\n");
    expect((await seedPluginDemo(notebook, { cacheDir })).message).toBe("reused");
    await writeFile(input, "v2 longer");
    await utimes(input, new Date(), new Date(Date.now() + 5_000));
    expect((await seedPluginDemo(notebook, { cacheDir })).message).toBe("built");
  });
});
