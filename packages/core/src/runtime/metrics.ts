import { Effect, Metric } from "effect";
import type { ToolStatus } from "../envelope.js";
import type { ErrorKind } from "../errors.js";

/** Calls per tool and status. */
export const toolCalls = Metric.counter("quiver_tool_calls_total", {
  description: "Tool calls by tool, plugin and status",
  incremental: true,
});
/** Failures per tool and error kind. */
export const toolFailures = Metric.counter("quiver_tool_failures_total", {
  description: "Failed tool calls by tool and error kind",
  incremental: true,
});
/** Call latency per tool, as a histogram (Prometheus buckets). */
export const toolLatency = Metric.histogram("quiver_tool_call_duration_ms", {
  description: "Tool call duration in milliseconds",
  boundaries: [1, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000],
});
/** Call latency per tool, as a sliding-window summary (p50/p95/p99 for stats). */
export const toolLatencySummary = Metric.summary("quiver_tool_call_duration_ms_summary", {
  description: "Tool call duration quantiles over the last 10 minutes",
  maxAge: "10 minutes",
  maxSize: 2_000,
  quantiles: [0.5, 0.95, 0.99],
});
/** Cache lookups per tool and result (hit or miss). */
export const cacheLookups = Metric.counter("quiver_cache_lookups_total", {
  description: "Cache lookups by tool and result",
  incremental: true,
});

/** What the runtime records after every call. */
export interface CallRecord {
  readonly tool: string;
  readonly plugin: string;
  readonly status: ToolStatus;
  readonly kind: ErrorKind | undefined;
  readonly durationMs: number;
  readonly cache: "hit" | "miss" | undefined;
}

/** Updates every metric for one finished call. Labels never carry input or secrets. */
export const recordCall = (r: CallRecord): Effect.Effect<void> => {
  const labels = { tool: r.tool, plugin: r.plugin };
  const updates: Effect.Effect<void>[] = [
    Metric.update(Metric.withAttributes(toolCalls, { ...labels, status: r.status }), 1),
    Metric.update(Metric.withAttributes(toolLatency, labels), r.durationMs),
    Metric.update(Metric.withAttributes(toolLatencySummary, labels), r.durationMs),
  ];
  if (r.kind)
    updates.push(Metric.update(Metric.withAttributes(toolFailures, { ...labels, kind: r.kind }), 1));
  if (r.cache)
    updates.push(Metric.update(Metric.withAttributes(cacheLookups, { ...labels, result: r.cache }), 1));
  return Effect.all(updates, { discard: true });
};

/** Per-tool figures for `stats()`. */
export interface ToolStats {
  readonly tool: string;
  readonly plugin: string;
  readonly calls: number;
  readonly successes: number;
  readonly failures: number;
  readonly failuresByKind: Readonly<Partial<Record<ErrorKind, number>>>;
  readonly p50Ms: number | undefined;
  readonly p95Ms: number | undefined;
  readonly cacheHitRate: number | undefined;
  readonly breaker?: "Closed" | "Open" | "HalfOpen";
}

/** Folds the metric snapshot into per-tool stats. */
export const summarise = (snapshot: ReadonlyArray<Metric.Metric.Snapshot>): ToolStats[] => {
  const byTool = new Map<
    string,
    {
      plugin: string;
      calls: number;
      successes: number;
      failuresByKind: Partial<Record<ErrorKind, number>>;
      p50?: number;
      p95?: number;
      hits: number;
      misses: number;
    }
  >();
  const entry = (tool: string, plugin: string) => {
    let e = byTool.get(tool);
    if (!e) {
      e = { plugin, calls: 0, successes: 0, failuresByKind: {}, hits: 0, misses: 0 };
      byTool.set(tool, e);
    }
    return e;
  };
  for (const s of snapshot) {
    const a = s.attributes;
    const tool = a?.tool;
    if (!tool || !a.plugin) continue;
    const e = entry(tool, a.plugin);
    if (s.type === "Counter") {
      const count = Number(s.state.count);
      if (s.id === toolCalls.id) {
        e.calls += count;
        if (a.status === "success" || a.status === "partial") e.successes += count;
      } else if (s.id === toolFailures.id && a.kind) {
        const kind = a.kind as ErrorKind;
        e.failuresByKind[kind] = (e.failuresByKind[kind] ?? 0) + count;
      } else if (s.id === cacheLookups.id) {
        if (a.result === "hit") e.hits += count;
        else e.misses += count;
      }
    } else if (s.type === "Summary" && s.id === toolLatencySummary.id) {
      for (const [q, v] of s.state.quantiles) {
        if (q === 0.5 && v !== undefined) e.p50 = v;
        if (q === 0.95 && v !== undefined) e.p95 = v;
      }
    }
  }
  return [...byTool.entries()].map(([tool, e]) => ({
    tool,
    plugin: e.plugin,
    calls: e.calls,
    successes: e.successes,
    failures: e.calls - e.successes,
    failuresByKind: e.failuresByKind,
    p50Ms: e.p50,
    p95Ms: e.p95,
    cacheHitRate: e.hits + e.misses > 0 ? e.hits / (e.hits + e.misses) : undefined,
  }));
};
