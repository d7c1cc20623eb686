import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { trackCalls } from "../src/host/track-calls.js";

const wait = defineTool({
  name: "t_wait",
  description: "Waits, honouring cancellation.",
  category: "computational_service",
  input: z.object({ ms: z.number().describe("ms") }),
  output: z.object({ ms: z.number() }),
  policy: { timeout: "1m", retry: false },
  run: ({ ms }, ctx) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => resolve({ ms }), ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(t);
        reject(new Error("aborted"));
      });
    }),
});
const inner = createCatalog({ env: {} });
inner.register(definePlugin({ specificationVersion: "v1", id: "t", version: "1.0.0", tools: [wait] }));
afterAll(() => inner.close());

describe("trackCalls", () => {
  it("counts calls in flight and forgets them when they settle", async () => {
    const t = trackCalls(inner);
    const p = t.catalog.call("t_wait", { ms: 30 }, { session: { principal: "ann" } });
    expect(t.inflight()).toMatchObject([{ tool: "t_wait", principal: "ann" }]);
    expect((await p).status).toBe("success");
    expect(t.inflight()).toEqual([]);
  });

  it("drains: calls that finish within the bound finish, the rest are aborted and still answer", async () => {
    const t = trackCalls(inner);
    const quick = t.catalog.call("t_wait", { ms: 20 });
    const slow = t.catalog.call("t_wait", { ms: 60_000 });
    const started = Date.now();
    const report = await t.drain(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(report.finished).toBe(1);
    expect(report.cancelled.map((c) => c.tool)).toEqual(["t_wait"]);
    expect(report.cancelled[0]!.result.status).toBe("unavailable");
    expect((await quick).status).toBe("success");
    expect((await slow).message).toMatch(/cancelled/);
  });

  it("keeps the caller's own signal working, and callMany is tracked too", async () => {
    const t = trackCalls(inner);
    const controller = new AbortController();
    const p = t.catalog.call("t_wait", { ms: 60_000 }, { signal: controller.signal });
    controller.abort();
    expect((await p).status).toBe("unavailable");
    const many = t.catalog.callMany([
      { name: "t_wait", input: { ms: 500 } },
      { name: "t_wait", input: { ms: 500 } },
    ]);
    // The batch's calls start once core's batch runner is loaded (a few microtasks at most).
    await vi.waitFor(() => expect(t.inflight().length).toBe(2), { interval: 1 });
    expect((await many).map((r) => r.status)).toEqual(["success", "success"]);
  });
});
