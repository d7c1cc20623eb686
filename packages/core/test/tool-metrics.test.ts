import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Metric from "effect/Metric";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../src/index.js";
import {
  cacheLookups,
  ToolMetrics,
  toolCalls,
  toolFailures,
  toolLatency,
  toolLatencySummary,
} from "../src/runtime/metrics.js";
import { makeProbe } from "./fixtures.js";

const registry = () => Context.make(Metric.MetricRegistry, new Map());

/** Each series of a registry by id and attributes, with its state. */
const series = (context: Context.Context<never>) =>
  Object.fromEntries(
    Metric.snapshotUnsafe(context).map((s) => [`${s.id} ${JSON.stringify(s.attributes)}`, [s.type, s.state]]),
  );

describe("a tool's metric series", () => {
  it("read the same as Effect's own counter, histogram and summary fed the same calls", () => {
    let now = 1_000_000;
    const ours = registry();
    const theirs = registry();
    const metrics = new ToolMetrics("probe", "p", ours, () => now);
    const labels = { tool: "probe", plugin: "p" };
    const reference = {
      latency: Metric.histogram(toolLatency.id, {
        description: toolLatency.description,
        boundaries: [1, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000],
        attributes: labels,
      }),
      summary: Metric.summaryWithTimestamp(toolLatencySummary.id, {
        description: toolLatencySummary.description,
        maxAge: "10 minutes",
        maxSize: 2_000,
        quantiles: [0.5, 0.95, 0.99],
        attributes: labels,
      }),
      counter: (id: string, description: string | undefined, extra: Record<string, string>) =>
        Metric.counter(id, { description, incremental: true, attributes: { ...labels, ...extra } }),
    };
    // Values on and between the bucket boundaries and past the last one; more calls than the summary
    // keeps (2,000), and some old enough to fall out of its 10-minute window.
    const durations = [0, 0.4, 1, 1.0001, 5, 7.5, 25, 60_000, 60_001, 123_456];
    for (let i = 0; i < 2_300; i++) {
      const ms = durations[i % durations.length]! * (1 + (i % 7) / 10);
      const status = i % 5 === 0 ? "error" : "success";
      const kind = status === "error" ? (i % 2 === 0 ? "upstream" : "timeout") : undefined;
      const cache = i % 3 === 0 ? "hit" : i % 3 === 1 ? "miss" : undefined;
      now += i < 1_000 ? 1_000 : 1;
      metrics.record(status, kind, ms, cache, now);
      reference.counter(toolCalls.id, toolCalls.description, { status }).updateUnsafe(1, theirs);
      reference.latency.updateUnsafe(ms, theirs);
      reference.summary.updateUnsafe([ms, now], theirs);
      if (kind)
        reference.counter(toolFailures.id, toolFailures.description, { kind }).updateUnsafe(1, theirs);
      if (cache)
        reference
          .counter(cacheLookups.id, cacheLookups.description, { result: cache })
          .updateUnsafe(1, theirs);
    }
    now += 60_000;
    // Effect's summary reads the clock in its context when it is snapshotted: the same "now" as ours.
    const clock = { currentTimeMillisUnsafe: () => now } as unknown as Clock.Clock;
    const expected = series(Context.add(theirs, Clock.Clock, clock));
    const actual = series(ours);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected)) expect(actual[key], key).toEqual(expected[key]);
  });
});

describe("the catalog's metric series", () => {
  it("count on when a plugin is unregistered and registered again", async () => {
    const catalog = createCatalog();
    catalog.register(makeProbe().plugin);
    await catalog.call("probe", { q: "a" });
    expect(catalog.unregister("probe")).toBe(true);
    catalog.register(makeProbe().plugin);
    await catalog.call("probe", { q: "b" });
    const [stats] = await catalog.stats();
    expect(stats).toMatchObject({ tool: "probe", calls: 2, successes: 2 });
    await catalog.close();
  });
});
