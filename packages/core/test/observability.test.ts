import { describe, expect, it } from "vitest";
import { createCatalog, fail } from "../src/index.js";
import { makeProbe } from "./fixtures.js";

describe("observability", () => {
  it("counts calls, successes, failures by kind, latency quantiles and cache hit rate per tool", async () => {
    const { plugin, state } = makeProbe({ retry: false, cache: { ttl: "1m" } });
    const catalog = createCatalog();
    catalog.register(plugin);
    await catalog.call("probe", { q: "a" });
    await catalog.call("probe", { q: "a" });
    state.failWith.push(fail.upstream("bad gateway"));
    await catalog.call("probe", { q: "b" });
    const [stats] = await catalog.stats();
    expect(stats).toMatchObject({
      tool: "probe",
      calls: 3,
      successes: 2,
      failures: 1,
      failuresByKind: { upstream: 1 },
    });
    expect(stats?.cacheHitRate).toBeCloseTo(1 / 3);
    expect(stats?.p95Ms).toBeGreaterThanOrEqual(stats?.p50Ms ?? 0);
    expect(stats?.p99Ms).toBeGreaterThanOrEqual(stats?.p95Ms ?? 0);
    expect(stats?.p99Ms).toBeTypeOf("number");
    expect(stats?.breaker).toBe("Closed");
    const metrics = await catalog.metrics();
    expect(metrics.map((m) => m.id)).toEqual(
      expect.arrayContaining([
        "quiver_tool_calls_total",
        "quiver_tool_call_duration_ms",
        "quiver_cache_lookups_total",
      ]),
    );
    await catalog.close();
  });

  it("reports each circuit breaker's state as a gauge, read at the snapshot before", async () => {
    const { plugin, state } = makeProbe({
      retry: false,
      breaker: { key: "probe-up", failures: 1, openFor: "1m" },
    });
    const catalog = createCatalog();
    catalog.register(plugin);
    const gauge = async () =>
      (await catalog.metrics()).find(
        (m) => m.id === "quiver_breaker_state" && m.attributes?.breaker === "probe-up",
      );
    await catalog.call("probe", { q: "a" });
    expect((await gauge())?.state).toEqual({ value: 0 });
    state.failWith.push(fail.upstream("bad gateway"));
    await catalog.call("probe", { q: "b" });
    // Each snapshot starts the read the next one reports (a turn of the event loop, no timer).
    let value: unknown;
    for (let i = 0; i < 20 && value !== 2; i++) {
      value = ((await gauge())?.state as { value: number } | undefined)?.value;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(value).toBe(2);
    await catalog.close();
  });

  it("keeps each catalog's metrics apart", async () => {
    const a = createCatalog();
    const b = createCatalog();
    a.register(makeProbe().plugin);
    b.register(makeProbe().plugin);
    await a.call("probe", { q: "x" });
    expect((await b.stats())[0]?.calls).toBe(0);
    await a.close();
    await b.close();
  });
});
