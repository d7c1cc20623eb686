import { Effect, Scope } from "effect";
import { TestClock } from "effect/testing";
import { z } from "zod";
import { definePlugin, defineTool, type fail, type InjectSpec, type ToolPolicy } from "../src/index.js";

/** A plugin whose tools are steered by the test through shared state: counts, failures, delays. */
export const makeProbe = (
  policy: ToolPolicy = {},
  annotations = { readOnly: true, openWorld: true },
  inject: Partial<Record<"q" | "n" | "who", string | InjectSpec>> = { who: "principal" },
) => {
  const state = {
    runs: 0,
    failWith: [] as Array<ReturnType<typeof fail.upstream>>,
    throwWith: [] as unknown[],
    delayMs: 0,
    aborted: 0,
    /** While set, runs wait for it (and count as running); resolve it to let them finish. */
    hold: undefined as Promise<void> | undefined,
    running: 0,
    maxRunning: 0,
  };
  const probe = defineTool({
    name: "probe",
    description: "A test tool that echoes its input after the configured behaviour.",
    category: "computational_service",
    input: z.object({
      q: z.string().describe("Any text"),
      n: z.number().int().optional().describe("A number"),
      who: z.string().optional().describe("Filled from the session"),
    }),
    output: z.object({ echo: z.string(), run: z.number(), who: z.string().optional() }),
    examples: [{ input: { q: "hello" } }],
    annotations,
    policy,
    inject,
    run: async ({ q, who }, ctx) => {
      state.runs++;
      const run = state.runs;
      state.running++;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      try {
        if (state.hold) await state.hold;
      } finally {
        state.running--;
      }
      if (state.delayMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, state.delayMs);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(t);
            state.aborted++;
            reject(new Error("aborted"));
          });
        });
      }
      const thrown = state.throwWith.shift();
      if (thrown !== undefined) throw thrown;
      const failure = state.failWith.shift();
      if (failure) throw failure;
      return { echo: q, run, ...(who ? { who } : {}) };
    },
  });
  const plugin = definePlugin({ specificationVersion: "v1", id: "probe", version: "1.0.0", tools: [probe] });
  return { plugin, state };
};

/**
 * Effect's TestClock for a catalog (`createCatalog({ clock })`): policies' time moves only when the
 * test moves it, so no test waits on a real timer for a timeout, a backoff or a breaker. The same as
 * @quiver/testing's `makeTestClock`, which core's own tests cannot import (testing depends on core).
 */
export const makeTestClock = async () => {
  const scope = Scope.makeUnsafe();
  const clock = Effect.runSync(TestClock.make({ warningDelay: "1 hour" }).pipe(Scope.provide(scope)));
  // Start on a real date, as the live clock would (time 0 reads as "no timestamp" to lru-cache).
  await Effect.runPromise(clock.setTime(Date.parse("2026-01-01T00:00:00Z")));
  const advance = (ms: number) => Effect.runPromise(clock.adjust(ms));
  const advanceUntil = async <T>(promise: Promise<T>, stepMs = 50, maxMs = 600_000): Promise<T> => {
    let settled = false;
    const done = () => {
      settled = true;
    };
    void promise.then(done, done);
    for (let moved = 0; !settled && moved < maxMs; moved += stepMs) {
      await advance(stepMs);
      await new Promise((r) => setImmediate(r));
    }
    return promise;
  };
  return { clock, advance, advanceUntil, now: () => clock.currentTimeMillisUnsafe() };
};

/** A promise and its resolve function, to hold a run until the test lets it go. */
export const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
};
