import { createCatalog, definePlugin, defineTool, fail } from "@quiver/core";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toPrometheus } from "../src/http/prometheus.js";

const ok = defineTool({
  name: "m_ok",
  description: "Succeeds.",
  category: "computational_service",
  input: z.object({ n: z.number().describe("n") }),
  output: z.object({ n: z.number() }),
  policy: { cache: { ttl: "1m" } },
  run: ({ n }) => ({ n }),
});
const bad = defineTool({
  name: "m_bad",
  description: "Fails.",
  category: "computational_service",
  input: z.object({}),
  output: z.object({}),
  policy: { retry: false },
  run: () => {
    throw fail.upstream('down "on purpose"');
  },
});
const catalog = createCatalog({ env: {} });
catalog.register(definePlugin({ specificationVersion: "v1", id: "m", version: "1.0.0", tools: [ok, bad] }));
afterAll(() => catalog.close());

/** Every non-comment line must be `name{labels} value` in the exposition format. */
const SAMPLE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/;

describe("toPrometheus", () => {
  it("renders counters, histograms with cumulative buckets, and summaries with quantiles", async () => {
    await catalog.call("m_ok", { n: 1 });
    await catalog.call("m_ok", { n: 1 });
    await catalog.call("m_ok", { n: 2 });
    await catalog.call("m_bad", {});
    const text = toPrometheus(await catalog.metrics(), [
      { name: "quiver_host_inflight_calls", help: "in flight", samples: [{ value: 0 }] },
    ]);
    const lines = text.trim().split("\n");
    for (const l of lines) if (!l.startsWith("#")) expect(l).toMatch(SAMPLE);

    expect(text).toContain("# TYPE quiver_tool_calls_total counter");
    expect(text).toMatch(/quiver_tool_calls_total\{tool="m_ok",plugin="m",status="success"\} 3/);
    expect(text).toMatch(/quiver_tool_failures_total\{tool="m_bad",plugin="m",kind="upstream"\} 1/);
    expect(text).toMatch(/quiver_cache_lookups_total\{tool="m_ok",plugin="m",result="hit"\} 1/);

    expect(text).toContain("# TYPE quiver_tool_call_duration_ms histogram");
    const buckets = lines
      .filter((l) => l.startsWith('quiver_tool_call_duration_ms_bucket{tool="m_ok"'))
      .map((l) => Number(l.split(" ").pop()));
    expect(buckets.length).toBeGreaterThan(2);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]!);
    expect(text).toMatch(/quiver_tool_call_duration_ms_bucket\{tool="m_ok",plugin="m",le="\+Inf"\} 3/);
    expect(text).toMatch(/quiver_tool_call_duration_ms_count\{tool="m_ok",plugin="m"\} 3/);
    expect(text).toMatch(/quiver_tool_call_duration_ms_sum\{tool="m_ok",plugin="m"\} [0-9.]+/);

    expect(text).toContain("# TYPE quiver_tool_call_duration_ms_summary summary");
    expect(text).toMatch(
      /quiver_tool_call_duration_ms_summary\{tool="m_ok",plugin="m",quantile="0\.5"\} [0-9.]+/,
    );
    expect(text).toMatch(/quiver_tool_call_duration_ms_summary_count\{tool="m_ok",plugin="m"\} 3/);

    expect(text).toContain("# TYPE quiver_host_inflight_calls gauge");
    expect(text.endsWith("\n")).toBe(true);
  });

  it("escapes label values", () => {
    const text = toPrometheus(
      [],
      [{ name: "g", help: "h", samples: [{ labels: { v: 'a"b\\c\nd' }, value: 1 }] }],
    );
    expect(text).toContain('g{v="a\\"b\\\\c\\nd"} 1');
  });
});
