import * as Effect from "effect/Effect";
import { describe, expect, it, vi } from "vitest";
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
import { gate, makeProbe, makeTestClock } from "./fixtures.js";

/** A tool whose run the test writes, with the given policy. */
const toolWith = (
  name: string,
  policy: ToolPolicy,
  run: (input: { q: string }, ctx: ToolContext) => RunResult<{ q: string; attempt: number }>,
) =>
  defineTool({
    name,
    description: `The test tool ${name}.`,
    category: "computational_service",
    input: z.object({ q: z.string().describe("Any text") }),
    output: z.object({ q: z.string(), attempt: z.number() }),
    annotations: { readOnly: true, openWorld: true },
    policy,
    run,
  });

const pluginOf = (...tools: ReturnType<typeof toolWith>[]) =>
  definePlugin({ specificationVersion: "v1", id: "handover", version: "1.0.0", tools });

// Calls that wait in Effect (a tool's Effect, the retries, a "delay" rate limit), and the answers
// given without waiting (a tool that returns a plain value).
describe("calls that wait in Effect, and calls that do not wait", () => {
  it("answers a tool that returns a plain value, and caches it", async () => {
    let runs = 0;
    const catalog = createCatalog();
    catalog.register(
      pluginOf(
        toolWith("plain", { cache: { ttl: "1m" } }, ({ q }, ctx) => {
          runs++;
          return { q, attempt: ctx.call.attempt };
        }),
      ),
    );
    const first = await catalog.call("plain", { q: "x" });
    const second = await catalog.call("plain", { q: "x" });
    expect(first).toMatchObject({ status: "success", data: { q: "x", attempt: 1 } });
    expect(second.metadata.cached).toBe(true);
    expect(runs).toBe(1);
    await catalog.close();
  });

  it("retries a tool that returns an Effect, in the policy's schedule", async () => {
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(
      pluginOf(
        toolWith("effectful", { retry: { times: 2, base: "100ms" }, timeout: "10s" }, ({ q }, ctx) =>
          ctx.call.attempt < 3
            ? Effect.fail(fail.upstream(`attempt ${ctx.call.attempt} failed`, { retryable: true }))
            : Effect.succeed({ q, attempt: ctx.call.attempt }),
        ),
      ),
    );
    const result = await time.advanceUntil(catalog.call("effectful", { q: "x" }), 50);
    expect(result).toMatchObject({ status: "success", data: { q: "x", attempt: 3 } });
    expect(result.metadata.attempts).toBe(3);
    await catalog.close();
  });

  it("a caller's abort during the backoff between retries ends the call, with no further attempt", async () => {
    const { plugin, state } = makeProbe({ retry: { times: 3, base: "1s" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    state.failWith.push(fail.upstream("down", { retryable: true }));
    const controller = new AbortController();
    const pending = catalog.call("probe", { q: "x" }, { signal: controller.signal });
    await vi.waitFor(() => expect(state.runs).toBe(1));
    await time.advance(10);
    controller.abort();
    const result = await pending;
    expect(result.status).toBe("unavailable");
    expect(result.message).toMatch(/cancelled by the caller/);
    await time.advance(60_000);
    expect(state.runs).toBe(1);
    await catalog.close();
  });

  it("a breaker counts a call once, however many attempts its retries made", async () => {
    const { plugin, state } = makeProbe({
      retry: { times: 1, base: "10ms" },
      breaker: { failures: 2, openFor: "1m" },
    });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    const down = () => fail.upstream("down", { retryable: true });
    state.failWith.push(down(), down());
    const first = await time.advanceUntil(catalog.call("probe", { q: "a" }), 10);
    expect(first.status).toBe("error");
    expect(state.runs).toBe(2);
    // One failed call of two allowed: the circuit is still closed.
    const second = await catalog.call("probe", { q: "b" });
    expect(second.status).toBe("success");
    expect((await catalog.stats())[0]?.breaker).toBe("Closed");
    await catalog.close();
  });

  it("answers with the fallback tool when the tool fails, and not when the call is cancelled first", async () => {
    const backup = gate();
    let backupRuns = 0;
    const catalog = createCatalog();
    catalog.register(
      pluginOf(
        toolWith("primary", { retry: false, fallback: { tool: "backup" } }, () => {
          throw fail.upstream("primary is down", { retryable: true });
        }),
        toolWith("backup", { retry: false }, async ({ q }, ctx) => {
          backupRuns++;
          if (q === "held") await backup.promise;
          return { q, attempt: ctx.call.attempt };
        }),
      ),
    );
    const answered = await catalog.call("primary", { q: "x" });
    expect(answered.status).toBe("success");
    expect(answered.data).toEqual({ q: "x", attempt: 1 });
    expect(answered.message).toMatch(/primary failed \(primary is down\); backup answered instead/);
    expect(answered.metadata.fallbackTool).toBe("backup");

    const controller = new AbortController();
    const pending = catalog.call("primary", { q: "held" }, { signal: controller.signal });
    await vi.waitFor(() => expect(backupRuns).toBe(2));
    controller.abort();
    const cancelled = await pending;
    expect(cancelled.status).toBe("unavailable");
    expect(cancelled.message).toMatch(/cancelled by the caller/);
    backup.open();
    await catalog.close();
  });

  it("a rate limit in delay mode holds the call until its slot, then runs it", async () => {
    const { plugin, state } = makeProbe({
      retry: false,
      rateLimit: { limit: 1, window: "1s", onExceeded: "delay" },
    });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    expect((await catalog.call("probe", { q: "a" })).status).toBe("success");
    const second = catalog.call("probe", { q: "b" });
    await time.advance(500);
    await new Promise((r) => setImmediate(r));
    expect(state.runs).toBe(1);
    const result = await time.advanceUntil(second, 100);
    expect(result.status).toBe("success");
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("joins a call in flight: the joiners get its result, and a failure is not kept", async () => {
    const { plugin, state } = makeProbe({ retry: false, cache: { ttl: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    const held = gate();
    state.hold = held.promise;
    state.failWith.push(fail.upstream("down"));
    const calls = [1, 2, 3].map(() => catalog.call("probe", { q: "same" }));
    await vi.waitFor(() => expect(state.runs).toBe(1));
    state.hold = undefined;
    held.open();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.status)).toEqual(["error", "error", "error"]);
    // One call ran it (whichever reached the cache first); the other two joined it.
    expect(results.filter((r) => r.metadata.cached === false)).toHaveLength(1);
    const again = await catalog.call("probe", { q: "same" });
    expect(again.status).toBe("success");
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("a call that joined another's run stops when its own caller aborts; the run goes on for the others", async () => {
    const { plugin, state } = makeProbe({ retry: false, cache: { ttl: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    const held = gate();
    state.hold = held.promise;
    const runner = catalog.call("probe", { q: "same" });
    await vi.waitFor(() => expect(state.runs).toBe(1));
    const controller = new AbortController();
    const joiner = catalog.call("probe", { q: "same" }, { signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const stopped = await joiner;
    expect(stopped.status).toBe("unavailable");
    expect(stopped.message).toMatch(/cancelled by the caller/);
    state.hold = undefined;
    held.open();
    expect((await runner).status).toBe("success");
    expect(state.runs).toBe(1);
    expect(state.aborted).toBe(0);
    await catalog.close();
  });

  it("a run cancelled by its caller answers the calls that joined it, and the next call runs again", async () => {
    const { plugin, state } = makeProbe({ retry: false, cache: { ttl: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.delayMs = 60_000;
    const controller = new AbortController();
    const runner = catalog.call("probe", { q: "same" }, { signal: controller.signal });
    await vi.waitFor(() => expect(state.runs).toBe(1));
    const joiner = catalog.call("probe", { q: "same" });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const [ran, joined] = await Promise.all([runner, joiner]);
    expect(ran.message).toMatch(/cancelled by the caller/);
    expect(joined.status).toBe("unavailable");
    expect(joined.message).toMatch(/cancelled before it finished/);
    expect(state.aborted).toBe(1);
    state.delayMs = 0;
    const again = await catalog.call("probe", { q: "same" });
    expect(again).toMatchObject({ status: "success", metadata: { cached: false } });
    expect(state.runs).toBe(2);
    await catalog.close();
  });
});
