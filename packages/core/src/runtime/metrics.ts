import type * as Context from "effect/Context";
import * as Metric from "effect/Metric";
import type { ToolStatus } from "../envelope.js";
import type { ErrorKind } from "../errors.js";

const CALLS = {
  description: "Tool calls by tool, plugin and status",
  incremental: true,
} as const;
const FAILURES = {
  description: "Failed tool calls by tool and error kind",
  incremental: true,
} as const;
const LATENCY = {
  description: "Tool call duration in milliseconds",
  boundaries: [1, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000],
} as const;
const LATENCY_SUMMARY = {
  description: "Tool call duration quantiles over the last 10 minutes",
  maxAge: "10 minutes",
  maxSize: 2_000,
  quantiles: [0.5, 0.95, 0.99],
} as const;
const CACHE_LOOKUPS = {
  description: "Cache lookups by tool and result",
  incremental: true,
} as const;

/** Calls per tool and status. */
export const toolCalls = Metric.counter("quiver_tool_calls_total", CALLS);
/** Failures per tool and error kind. */
export const toolFailures = Metric.counter("quiver_tool_failures_total", FAILURES);
/** Call latency per tool, as a histogram (Prometheus buckets). */
export const toolLatency = Metric.histogram("quiver_tool_call_duration_ms", LATENCY);
/** Call latency per tool, as a sliding-window summary (p50/p95/p99 for stats). */
export const toolLatencySummary = Metric.summary("quiver_tool_call_duration_ms_summary", LATENCY_SUMMARY);
/** Cache lookups per tool and result (hit or miss). */
export const cacheLookups = Metric.counter("quiver_cache_lookups_total", CACHE_LOOKUPS);

/**
 * The series of one tool, built once at registration: every metric carries its attributes from
 * the start (the same series `Metric.withAttributes` would address), so an update is a registry
 * lookup by a key the metric computed once, not a merge, sort and JSON key per call. Series for a
 * status or error kind are made the first time it occurs. Labels never carry input or secrets.
 */
export class ToolMetrics {
  readonly #labels: { readonly tool: string; readonly plugin: string };
  readonly #latency: Metric.Metric<number, unknown>;
  readonly #latencySummary: Metric.Metric<number, unknown>;
  readonly #calls = new Map<ToolStatus, Metric.Metric<number, unknown>>();
  readonly #failures = new Map<ErrorKind, Metric.Metric<number, unknown>>();
  #hit: Metric.Metric<number, unknown> | undefined;
  #miss: Metric.Metric<number, unknown> | undefined;

  constructor(tool: string, plugin: string) {
    this.#labels = { tool, plugin };
    this.#latency = Metric.histogram(toolLatency.id, { ...LATENCY, attributes: this.#labels });
    this.#latencySummary = Metric.summary(toolLatencySummary.id, {
      ...LATENCY_SUMMARY,
      attributes: this.#labels,
    });
  }

  /** Updates every metric for one finished call, in the calling fiber's context. */
  record(
    context: Context.Context<never>,
    status: ToolStatus,
    kind: ErrorKind | undefined,
    durationMs: number,
    cache: "hit" | "miss" | undefined,
  ): void {
    let calls = this.#calls.get(status);
    if (!calls) {
      calls = Metric.counter(toolCalls.id, { ...CALLS, attributes: { ...this.#labels, status } });
      this.#calls.set(status, calls);
    }
    calls.updateUnsafe(1, context);
    this.#latency.updateUnsafe(durationMs, context);
    this.#latencySummary.updateUnsafe(durationMs, context);
    if (kind) {
      let failures = this.#failures.get(kind);
      if (!failures) {
        failures = Metric.counter(toolFailures.id, { ...FAILURES, attributes: { ...this.#labels, kind } });
        this.#failures.set(kind, failures);
      }
      failures.updateUnsafe(1, context);
    }
    if (cache === "hit") {
      this.#hit ??= Metric.counter(cacheLookups.id, {
        ...CACHE_LOOKUPS,
        attributes: { ...this.#labels, result: "hit" },
      });
      this.#hit.updateUnsafe(1, context);
    } else if (cache === "miss") {
      this.#miss ??= Metric.counter(cacheLookups.id, {
        ...CACHE_LOOKUPS,
        attributes: { ...this.#labels, result: "miss" },
      });
      this.#miss.updateUnsafe(1, context);
    }
  }
}

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
