import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog, definePlugin, defineTool, type ToolTaskSupport } from "../src/index.js";

/** A tool with the given task slot that reports partial data, then waits until its signal aborts. */
const waitingTool = (name: string, task?: ToolTaskSupport) =>
  defineTool({
    name,
    description: "Reports what it found so far, then waits for its caller to stop it.",
    category: "computational_service",
    input: z.object({}),
    output: z.object({ found: z.array(z.string()) }),
    ...(task !== undefined ? { task } : {}),
    policy: { timeout: "30s", retry: false },
    run: (_input, ctx) =>
      new Promise<{ found: string[] }>((_resolve, reject) => {
        ctx.reportPartial({ found: ["first"] });
        ctx.progress({ progress: 1, total: 2, message: "found the first" });
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
      }),
  });

const catalogOf = (...tools: ReturnType<typeof waitingTool>[]) => {
  const catalog = createCatalog();
  catalog.register(definePlugin({ specificationVersion: "v1", id: "waits", version: "1.0.0", tools }));
  return catalog;
};

describe("a tool's task slot", () => {
  it("lists `optional` and the tool's own deadline in milliseconds; the plain form stays valid", () => {
    const catalog = catalogOf(
      waitingTool("plain", "optional"),
      waitingTool("own_deadline", { support: "optional", deadline: "10m" }),
      waitingTool("ms_deadline", { support: "optional", deadline: 90_000 }),
      waitingTool("object_only", { support: "optional" }),
      waitingTool("no_task"),
    );
    const info = Object.fromEntries(catalog.list().map((t) => [t.name, t]));
    expect(info.plain).toMatchObject({ task: "optional" });
    expect(info.plain).not.toHaveProperty("taskDeadlineMs");
    expect(info.own_deadline).toMatchObject({ task: "optional", taskDeadlineMs: 600_000 });
    expect(info.ms_deadline).toMatchObject({ task: "optional", taskDeadlineMs: 90_000 });
    expect(info.object_only).toMatchObject({ task: "optional" });
    expect(info.object_only).not.toHaveProperty("taskDeadlineMs");
    expect(info.no_task).not.toHaveProperty("task");
  });

  it("refuses a deadline that is not a positive duration when the tool is defined", () => {
    expect(() => waitingTool("bad", { support: "optional", deadline: 0 })).toThrow(
      /"bad": A task deadline must be a positive duration/,
    );
    expect(() => waitingTool("worse", { support: "optional", deadline: "soon" as "1s" })).toThrow(/"worse"/);
  });
});

describe("a call its caller stops", () => {
  it("keeps what the tool reported: partial, marked incomplete, saying why it stopped", async () => {
    const catalog = catalogOf(waitingTool("waits_here", "optional"));
    const controller = new AbortController();
    const progress: number[] = [];
    const call = catalog.call(
      "waits_here",
      {},
      { signal: controller.signal, onProgress: (p) => progress.push(p.progress) },
    );
    await expect.poll(() => progress.length).toBe(1);
    controller.abort(new Error("the task reached its deadline of 5 s"));
    const result = await call;
    expect(result.status).toBe("partial");
    expect(result.data).toEqual({ found: ["first"] });
    expect(result.metadata.incomplete).toBe(true);
    expect(result.message).toBe(
      "waits_here was cancelled before it finished: the task reached its deadline of 5 s; returning what was found so far.",
    );
    expect(result.error?.kind).toBe("unavailable");
  });

  it("with nothing reported is still a failure", async () => {
    const catalog = createCatalog();
    const silent = defineTool({
      name: "silent",
      description: "Waits for its caller to stop it, reporting nothing.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({}),
      policy: { timeout: "30s", retry: false },
      run: (_input, ctx) =>
        new Promise<Record<string, never>>((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
        }),
    });
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "silent", version: "1.0.0", tools: [silent] }),
    );
    const controller = new AbortController();
    const call = catalog.call("silent", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the task was cancelled")), 50);
    const result = await call;
    expect(result.status).toBe("unavailable");
    expect(result.metadata.incomplete).toBeUndefined();
    expect(result.message).toBe("silent was cancelled before it finished: the task was cancelled.");
  });
});
