import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  definePlugin,
  defineTool,
  fail,
  type RunResult,
  type ToolContext,
  type ToolPolicy,
} from "../src/index.js";
import { makeProbe, makeTestClock } from "./fixtures.js";

/**
 * A catalog on a TestClock with one tool `slow` whose `run` the test gives, and its runtime already
 * loaded (by a call to another plugin's tool): a cold catalog loads it while the test moves the clock.
 */
const catalogWith = async (
  run: (input: { q: string }, ctx: ToolContext) => RunResult<{ q: string }>,
  policy: ToolPolicy,
  setup?: (signal: AbortSignal) => Promise<unknown>,
) => {
  const time = await makeTestClock();
  const catalog = createCatalog({ clock: time.clock });
  const slow = defineTool({
    name: "slow",
    description: "A tool the test steers.",
    category: "computational_service",
    input: z.object({ q: z.string() }),
    output: z.object({ q: z.string() }),
    annotations: { readOnly: true, openWorld: true },
    policy,
    run,
  });
  catalog.register(
    definePlugin({
      specificationVersion: "v1",
      id: "slow",
      version: "1.0.0",
      tools: [slow],
      ...(setup ? { setup: async (ctx: { signal: AbortSignal }) => setup(ctx.signal) } : {}),
    }),
  );
  const warm = makeProbe({ retry: false });
  catalog.register(warm.plugin);
  expect((await catalog.call("probe", { q: "warm" })).status).toBe("success");
  return { catalog, time };
};

describe("the timeout ends every kind of wait at the deadline", () => {
  it("a run that returns an Effect that never ends is interrupted at the deadline", async () => {
    let interrupted = 0;
    let started = 0;
    const { catalog, time } = await catalogWith(
      () => {
        started = time.now();
        return Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted++)));
      },
      { timeout: "2s", retry: false },
    );
    const r = await time.advanceUntil(catalog.call("slow", { q: "x" }), 100);
    expect(r.status).toBe("timeout");
    expect(r.message).toBe("slow did not finish within 2000 ms.");
    expect(time.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(time.now() - started).toBeLessThan(2_200);
    expect(interrupted).toBe(1);
    await catalog.close();
  });

  it("a backoff between retries that would pass the deadline is cut short by it", async () => {
    const { plugin, state } = makeProbe({ timeout: "1s", retry: { times: 3, base: "5s", maxElapsed: "1m" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    // A first call loads the runtime, so the timed call starts at once.
    expect((await catalog.call("probe", { q: "warm" })).status).toBe("success");
    state.failWith.push(fail.upstream("502"), fail.upstream("502"));
    const started = time.now();
    const r = await time.advanceUntil(catalog.call("probe", { q: "x" }), 100);
    expect(r.status).toBe("timeout");
    expect(time.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(time.now() - started).toBeLessThan(1_200);
    // One attempt ran; the second was still waiting for its backoff.
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("a retried attempt that hangs is aborted at the deadline", async () => {
    let attempts = 0;
    let aborted = 0;
    let started = 0;
    const { catalog, time } = await catalogWith(
      (_input, ctx) => {
        attempts++;
        if (attempts === 1) {
          started = time.now();
          throw fail.upstream("502");
        }
        return new Promise(() => {
          ctx.signal.addEventListener("abort", () => aborted++);
        });
      },
      { timeout: "1s", retry: { times: 3, base: "10ms" } },
    );
    const r = await time.advanceUntil(catalog.call("slow", { q: "x" }), 50);
    expect(r.status).toBe("timeout");
    expect(time.now() - started).toBeLessThan(1_100);
    expect(attempts).toBe(2);
    expect(aborted).toBe(1);
    await catalog.close();
  });

  it("answers what the run reported with reportPartial as a partial marked incomplete when the deadline passes", async () => {
    const { catalog, time } = await catalogWith(
      (_input, ctx) =>
        new Promise(() => {
          ctx.reportPartial({ q: "half" });
        }),
      { timeout: "500ms", retry: false },
    );
    const r = await time.advanceUntil(catalog.call("slow", { q: "x" }), 50);
    expect(r.status).toBe("partial");
    expect(r.metadata.incomplete).toBe(true);
    expect(r.error?.kind).toBe("timeout");
    expect(r.data).toEqual({ q: "half" });
    expect(r.message).toMatch(/returning what was found so far/);
    await catalog.close();
  });

  it("a plugin setup that hangs counts against the first call's deadline", async () => {
    const { catalog, time } = await catalogWith(
      async ({ q }) => ({ q }),
      { timeout: "1s", retry: false },
      // Never opens; gives up when the catalog closes.
      (signal) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("closed")))),
    );
    const started = time.now();
    const r = await time.advanceUntil(catalog.call("slow", { q: "x" }), 100);
    expect(r.status).toBe("timeout");
    expect(time.now() - started).toBeLessThan(1_200);
    await catalog.close();
  });

  it("a run that finishes first is not touched by the deadline, and the next call gets its own", async () => {
    const seen: AbortSignal[] = [];
    const { catalog, time } = await catalogWith(
      async ({ q }, ctx) => {
        seen.push(ctx.signal);
        return { q };
      },
      { timeout: "300ms", retry: false },
    );
    expect((await catalog.call("slow", { q: "a" })).status).toBe("success");
    await time.advance(1_000);
    expect((await catalog.call("slow", { q: "b" })).status).toBe("success");
    expect(seen.map((s) => s.aborted)).toEqual([false, false]);
    await catalog.close();
  });
});
