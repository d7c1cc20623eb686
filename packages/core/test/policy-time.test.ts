import { describe, expect, it, vi } from "vitest";
import { createCatalog, definePlugin, fail } from "../src/index.js";
import { gate, makeProbe, makeTestClock } from "./fixtures.js";

describe("circuit breaker over time (TestClock)", () => {
  const open = async () => {
    const { plugin, state } = makeProbe({ retry: false, breaker: { failures: 2, openFor: "1m" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    return { catalog, state, time };
  };
  const trip = async (
    catalog: ReturnType<typeof createCatalog>,
    state: ReturnType<typeof makeProbe>["state"],
  ) => {
    state.failWith.push(fail.upstream("500"), fail.upstream("500"));
    await catalog.call("probe", { q: "a" });
    await catalog.call("probe", { q: "b" });
  };
  const breakerState = async (catalog: ReturnType<typeof createCatalog>) =>
    (await catalog.stats()).find((s) => s.tool === "probe")?.breaker;

  it("stays open for openFor, then lets one probe through, which closes it on success", async () => {
    const { catalog, state, time } = await open();
    await trip(catalog, state);
    await time.advance(59_000);
    const refused = await catalog.call("probe", { q: "c" });
    expect(refused.status).toBe("unavailable");
    expect(refused.error?.retryAfterMs).toBe(1_000);
    expect(state.runs).toBe(2);
    await time.advance(1_000);
    expect(await breakerState(catalog)).toBe("HalfOpen");
    const probe = await catalog.call("probe", { q: "d" });
    expect(probe.status).toBe("success");
    expect(await breakerState(catalog)).toBe("Closed");
    expect((await catalog.call("probe", { q: "e" })).status).toBe("success");
    await catalog.close();
  });

  it("opens again when the probe fails, for another openFor", async () => {
    const { catalog, state, time } = await open();
    await trip(catalog, state);
    await time.advance(60_000);
    state.failWith.push(fail.upstream("still down"));
    expect((await catalog.call("probe", { q: "probe" })).error?.kind).toBe("upstream");
    expect(await breakerState(catalog)).toBe("Open");
    const refused = await catalog.call("probe", { q: "after" });
    expect(refused.error?.retryAfterMs).toBe(60_000);
    expect(state.runs).toBe(3);
    await catalog.close();
  });

  it("refuses other calls while the probe runs", async () => {
    const { catalog, state, time } = await open();
    await trip(catalog, state);
    await time.advance(60_000);
    const held = gate();
    state.hold = held.promise;
    const probe = catalog.call("probe", { q: "probe" });
    await vi.waitFor(() => expect(state.running).toBe(1));
    const other = await catalog.call("probe", { q: "other" });
    expect(other.status).toBe("unavailable");
    expect(other.message).toMatch(/being probed/);
    held.open();
    expect((await probe).status).toBe("success");
    await catalog.close();
  });

  it("does not count a bad argument or a refusal as an upstream failure", async () => {
    const { catalog, state } = await open();
    state.failWith.push(fail.invalidInput("bad"), fail.invalidInput("bad"), fail.invalidInput("bad"));
    for (const q of ["a", "b", "c"]) await catalog.call("probe", { q });
    expect(await breakerState(catalog)).toBe("Closed");
    await catalog.close();
  });
});

describe("windows and ages over time (TestClock)", () => {
  it("a spent rate limit is available again when its window has passed", async () => {
    const { plugin, state } = makeProbe({ rateLimit: { limit: 1, window: "1m" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    await catalog.call("probe", { q: "a" });
    expect((await catalog.call("probe", { q: "b" })).error?.kind).toBe("rate_limited");
    await time.advance(60_000);
    expect((await catalog.call("probe", { q: "c" })).status).toBe("success");
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("a cached result expires after its time to live", async () => {
    const { plugin, state } = makeProbe({ cache: { ttl: "1m" } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    await catalog.call("probe", { q: "x" });
    await time.advance(59_000);
    expect((await catalog.call("probe", { q: "x" })).metadata.cached).toBe(true);
    await time.advance(1_001);
    expect((await catalog.call("probe", { q: "x" })).metadata.cached).toBe(false);
    expect(state.runs).toBe(2);
    await catalog.close();
  });

  it("a stale result says how old it is", async () => {
    const { plugin, state } = makeProbe({ retry: false, fallback: { stale: true } });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin);
    await catalog.call("probe", { q: "x" });
    await time.advance(90_000);
    state.failWith.push(fail.unavailable("down"));
    const result = await catalog.call("probe", { q: "x" });
    expect(result.metadata).toMatchObject({ stale: true, staleAgeMs: 90_000 });
    await catalog.close();
  });
});

describe("per-conversation memory", () => {
  it("counts failures per principal and session: another caller's failures in the same session id do not escalate", async () => {
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(plugin);
    state.failWith.push(fail.unavailable("down"), fail.unavailable("down"));
    const alice = await catalog.call("probe", { q: "x" }, { session: { id: "s-esc4", principal: "alice" } });
    expect(alice.escalate).toBeUndefined();
    const demo = await catalog.call("probe", { q: "x" }, { session: { id: "s-esc4", principal: "demo" } });
    expect(demo.escalate).toBeUndefined();
    await catalog.close();
  });
});

describe("shutdown", () => {
  it("interrupts the calls in flight before it closes what the plugins opened", async () => {
    const events: string[] = [];
    const { plugin, state } = makeProbe({ retry: false });
    const catalog = createCatalog();
    catalog.register(
      definePlugin({
        ...plugin,
        setup: (ctx) => {
          ctx.onClose(
            () =>
              void events.push(
                state.aborted === 1 ? "closed after the run was aborted" : "closed under a running call",
              ),
          );
          return {};
        },
      }),
    );
    state.delayMs = 60_000;
    const pending = catalog.call("probe", { q: "x" });
    await vi.waitFor(() => expect(state.runs).toBe(1));
    const closing = catalog.close();
    const result = await pending;
    await closing;
    expect(result.status).toBe("unavailable");
    expect(result.message).toMatch(/shutting down/);
    expect(events).toEqual(["closed after the run was aborted"]);
  });

  it("refuses calls made after close", async () => {
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    await catalog.close();
    const late = await catalog.call("probe", { q: "x" });
    expect(late.status).toBe("unavailable");
    expect(late.error?.retryable).toBe(true);
  });
});
