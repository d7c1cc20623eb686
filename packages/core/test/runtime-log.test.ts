import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Effect } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Catalog, createCatalog, definePlugin, defineTool, type RuntimeLogLevel } from "../src/index.js";

const core = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** A plugin whose one tool logs through Effect's logger while it runs, then answers. */
const loggingPlugin = () =>
  definePlugin({
    specificationVersion: "v1",
    id: "noisy",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "noisy_run",
        description: "Logs a warning and an error through Effect, then answers.",
        category: "computational_service",
        input: z.object({ q: z.string().describe("Any text") }),
        output: z.object({ q: z.string() }),
        examples: [{ input: { q: "x" } }],
        annotations: { readOnly: true, openWorld: false },
        policy: { retry: false },
        run: ({ q }) =>
          Effect.gen(function* () {
            yield* Effect.logWarning("disk almost full:", { free: "2%" });
            yield* Effect.logError("index rebuild failed", new Error("ENOSPC: no space left"));
            yield* Effect.logInfo("multi", "part", 3);
            return { q };
          }),
      }),
    ],
  });

let catalog: Catalog | undefined;
afterEach(async () => {
  await catalog?.close();
  catalog = undefined;
});

describe("the runtime's own log (createCatalog({ log }))", () => {
  it("hears a tool's Effect.log* lines, one line of text each with its level", async () => {
    const lines: Array<[RuntimeLogLevel, string]> = [];
    catalog = createCatalog({ env: {}, log: (level, message) => lines.push([level, message]) });
    catalog.register(loggingPlugin());
    const result = await catalog.call("noisy_run", { q: "a" });
    expect(result.status).toBe("success");
    expect(lines).toEqual([
      ["warning", "disk almost full: { free: '2%' }"],
      ["error", "index rebuild failed ENOSPC: no space left"],
      ["info", "multi part 3"],
    ]);
  });

  it("a log that throws loses its lines, never the call", async () => {
    catalog = createCatalog({
      env: {},
      log: () => {
        throw new Error("log sink is gone");
      },
    });
    catalog.register(loggingPlugin());
    const result = await catalog.call("noisy_run", { q: "b" });
    expect(result.status).toBe("success");
    expect(result.data).toEqual({ q: "b" });
  });

  // The default is proved in a process of its own: what it writes to its stdout and stderr.
  it.runIf(existsSync(resolve(core, "dist/index.js")))(
    "writes to standard error by default, never to standard output (an MCP stdio server speaks there)",
    async () => {
      const script = `
        import { createCatalog, definePlugin, defineTool } from "./dist/index.js";
        import { Effect } from "effect";
        import { z } from "zod";
        const catalog = createCatalog({ env: {} });
        catalog.register(definePlugin({ specificationVersion: "v1", id: "noisy", version: "1.0.0", tools: [
          defineTool({ name: "noisy_run", description: "Logs a warning through Effect, then answers.",
            category: "computational_service", input: z.object({}), output: z.object({ ok: z.boolean() }),
            examples: [{ input: {} }], annotations: { readOnly: true, openWorld: false },
            run: () => Effect.as(Effect.logWarning("store went away"), { ok: true }) }) ] }));
        const r = await catalog.call("noisy_run", {});
        await catalog.close();
        if (r.status !== "success") process.exitCode = 3;
      `;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        cwd: core,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const [code] = await once(child, "exit");
      expect({ code, stdout }).toEqual({ code: 0, stdout: "" });
      expect(stderr).toBe("warning: store went away\n");
    },
    30_000,
  );
});
