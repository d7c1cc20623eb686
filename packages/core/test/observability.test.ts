import { Layer, Tracer } from "effect";
import { describe, expect, it } from "vitest";
import { createCatalog, fail } from "../src/index.js";
import { makeProbe } from "./fixtures.js";

describe("observability", () => {
  it("emits a span per call to the tracer the host installs (the hook for OpenTelemetry)", async () => {
    const spans: Tracer.NativeSpan[] = [];
    const recording = Tracer.make({
      span(options) {
        const span = new Tracer.NativeSpan(options);
        spans.push(span);
        return span;
      },
    });
    const { plugin } = makeProbe();
    const catalog = createCatalog({ layer: Layer.succeed(Tracer.Tracer, recording) });
    catalog.register(plugin);
    await catalog.call("probe", { q: "traced" });
    const span = spans.find((s) => s.name === "quiver.tool.call");
    expect(span).toBeDefined();
    expect(span?.attributes.get("quiver.tool")).toBe("probe");
    expect(span?.status._tag).toBe("Ended");
    await catalog.close();
  });

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
