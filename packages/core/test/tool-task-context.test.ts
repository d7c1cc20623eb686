import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog, definePlugin, defineTool, fail, type ToolTask } from "../src/index.js";

// `ctx.task`: what a task runner hands a call through `CallOptions.task` reaches the tool as is,
// and only the task's own tool (never its fallback, never a plain call).
const seen: Array<{ tool: string; task: ToolTask | undefined }> = [];
const tool = (name: string, run: () => unknown, fallback?: string) =>
  defineTool({
    name,
    description: `The test tool ${name}.`,
    category: "computational_service",
    input: z.object({ q: z.string().describe("Any text") }),
    output: z.object({ q: z.string() }),
    annotations: { readOnly: true },
    policy: { retry: false, ...(fallback ? { fallback: { tool: fallback } } : {}) },
    run: ({ q }, ctx) => {
      seen.push({ tool: name, task: ctx.task });
      run();
      return { q };
    },
  });
const plugin = definePlugin({
  specificationVersion: "v1",
  id: "tasked",
  version: "1.0.0",
  tools: [
    tool("tasked_run", () => {}),
    tool(
      "tasked_flaky",
      () => {
        throw fail.upstream("down", { retryable: true });
      },
      "tasked_backup",
    ),
    tool("tasked_backup", () => {}),
  ],
});

describe("ctx.task", () => {
  it("is the task the call runs as, for its own tool only", async () => {
    const catalog = createCatalog();
    catalog.register(plugin);
    const points: unknown[] = [];
    const task: ToolTask = {
      id: "t1",
      resumeFrom: { job: "j1" },
      resume: async (p) => {
        points.push(p);
      },
      handedOver: () => false,
    };
    seen.length = 0;
    await catalog.call("tasked_run", { q: "a" }, { task });
    await catalog.call("tasked_run", { q: "b" });
    expect(seen.map((s) => s.task)).toEqual([task, undefined]);
    await seen[0]?.task?.resume({ job: "j2" });
    expect(points).toEqual([{ job: "j2" }]);

    seen.length = 0;
    const r = await catalog.call("tasked_flaky", { q: "c" }, { task });
    expect(r.status).toBe("success");
    expect(seen.map((s) => [s.tool, s.task?.id])).toEqual([
      ["tasked_flaky", "t1"],
      ["tasked_backup", undefined],
    ]);
    await catalog.close();
  });
});
