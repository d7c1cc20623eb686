import type * as Context from "effect/Context";
import * as Metric from "effect/Metric";
import type { ToolStatus } from "../envelope.js";
import type { ErrorKind } from "../errors.js";

/** A counter that only goes up. */
const counter = (name: string, description: string) =>
  Metric.counter(name, { description, incremental: true });

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
const SUMMARY_MAX_AGE_MS = 10 * 60_000;

/** Calls per tool and status. */
export const toolCalls = counter("quiver_tool_calls_total", "Tool calls by tool, plugin and status");
/** Failures per tool and error kind. */
export const toolFailures = counter("quiver_tool_failures_total", "Failed tool calls by tool and error kind");
/** Call latency per tool, as a histogram (Prometheus buckets). */
export const toolLatency = Metric.histogram("quiver_tool_call_duration_ms", LATENCY);
/** Call latency per tool, as a sliding-window summary (p50/p95/p99 for stats). */
export const toolLatencySummary = Metric.summaryWithTimestamp(
  "quiver_tool_call_duration_ms_summary",
  LATENCY_SUMMARY,
);
/** Cache lookups per tool and result (hit or miss). */
export const cacheLookups = counter("quiver_cache_lookups_total", "Cache lookups by tool and result");

const ignore = () => undefined;

/** Registers a series whose value lives here and is read when the registry is snapshotted. */
export const register = <State>(
  metric: Metric.Metric<never, State>,
  context: Context.Context<never>,
  get: () => State,
): void => {
  Metric.registerUnsafe(metric as Metric.Metric<unknown, State>, context, {
    get,
    update: ignore,
    modify: ignore,
  });
};

/** A counter's total, read as Effect's `CounterState`. */
class Count {
  value = 0;
  readonly state = (): Metric.CounterState<number> => ({ count: this.value, incremental: true });
}

/**
 * A tool's durations, read as Effect's `HistogramState` (counted in the buckets) and `SummaryState`
 * (the last `maxSize` and when each ended: the quantiles of those no older than `maxAge`, ranked as
 * Effect's summary ranks them), with their count, sum, min and max. Kept in typed arrays, so a call
 * stores a few numbers and allocates nothing.
 */
class Latency {
  readonly #totals = { count: 0, sum: 0, min: Number.MAX_VALUE, max: -Number.MAX_VALUE };
  // One more than the boundaries: the values above the last one.
  readonly #counts = new Float64Array(LATENCY.boundaries.length + 1);
  readonly #values = new Float64Array(LATENCY_SUMMARY.maxSize);
  readonly #times = new Float64Array(LATENCY_SUMMARY.maxSize);
  #next = 0;

  constructor(private readonly now: () => number) {}

  observe(ms: number, at: number): void {
    const bounds = LATENCY.boundaries;
    let i = 0;
    while (i < bounds.length && ms > bounds[i]!) i++;
    this.#counts[i]! += 1;
    this.#values[this.#next] = ms;
    this.#times[this.#next] = at;
    this.#next = (this.#next + 1) % LATENCY_SUMMARY.maxSize;
    const t = this.#totals;
    t.count += 1;
    t.sum += ms;
    if (ms < t.min) t.min = ms;
    if (ms > t.max) t.max = ms;
  }

  readonly histogram = (): Metric.HistogramState => {
    let cumulated = 0;
    const buckets = LATENCY.boundaries.map((boundary, i): [number, number] => {
      cumulated += this.#counts[i]!;
      return [boundary, cumulated];
    });
    return { buckets, ...this.#totals };
  };

  readonly summary = (): Metric.SummaryState => {
    const now = this.now();
    const samples: number[] = [];
    for (let i = 0; i < Math.min(this.#totals.count, LATENCY_SUMMARY.maxSize); i++) {
      const age = now - this.#times[i]!;
      if (age >= 0 && age <= SUMMARY_MAX_AGE_MS) samples.push(this.#values[i]!);
    }
    samples.sort((a, b) => a - b);
    const n = samples.length;
    // The largest value with at most q·n values at or below it (Effect's summary's rank).
    const quantiles = LATENCY_SUMMARY.quantiles.map((q): [number, number | undefined] => [
      q,
      n === 0 ? undefined : samples[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))],
    ]);
    return { quantiles, ...this.#totals };
  };
}

/**
 * The series of one tool in the runtime's metric registry: calls by status, failures by kind, the
 * latency histogram and summary, and cache lookups by result, under the same names, attributes and
 * states as `Metric.counter`, `histogram` and `summary` give them. Series for a status, error kind or
 * cache result are registered the first time one occurs. Labels never carry input or secrets.
 *
 * The numbers are kept here and read when the registry is snapshotted (`Metric.registerUnsafe`), the
 * case Effect gives for a value "updating a metric on every change would cost more than reading at
 * export time": a `Metric.update` looks its series up in the registry on every call, and Effect's
 * summary allocates a pair per call and keeps 2,000 of them alive. The five updates of a call cost
 * more that way than a policy does; here they are a few field writes.
 */
export class ToolMetrics {
  readonly #labels: { readonly tool: string; readonly plugin: string };
  readonly #calls = new Map<ToolStatus, Count>();
  readonly #failures = new Map<ErrorKind, Count>();
  readonly #lookups = new Map<"hit" | "miss", Count>();
  #latency: Latency | undefined;

  /**
   * `context`: the runtime's, whose `MetricRegistry` the series are registered in. `now`: the clock
   * the summary's ages are measured on (the one `record`'s `at` is read from).
   */
  constructor(
    tool: string,
    plugin: string,
    private readonly context: Context.Context<never>,
    private readonly now: () => number,
  ) {
    this.#labels = { tool, plugin };
  }

  /** Counts one finished call that took `durationMs` and ended at `at` (on the `now` clock). */
  record(
    status: ToolStatus,
    kind: ErrorKind | undefined,
    durationMs: number,
    cache: "hit" | "miss" | undefined,
    at: number,
  ): void {
    this.#count(this.#calls, status, toolCalls, "status").value += 1;
    let latency = this.#latency;
    if (!latency) {
      latency = this.#latency = new Latency(this.now);
      const attributes = this.#labels;
      register(Metric.histogram(toolLatency.id, { ...LATENCY, attributes }), this.context, latency.histogram);
      const summary = Metric.summaryWithTimestamp(toolLatencySummary.id, { ...LATENCY_SUMMARY, attributes });
      register(summary, this.context, latency.summary);
    }
    latency.observe(durationMs, at);
    if (kind) this.#count(this.#failures, kind, toolFailures, "kind").value += 1;
    if (cache) this.#count(this.#lookups, cache, cacheLookups, "result").value += 1;
  }

  /** The counter for one value of `label`, registered the first time. */
  #count<K extends string>(counts: Map<K, Count>, value: K, metric: typeof toolCalls, label: string): Count {
    let count = counts.get(value);
    if (!count) {
      count = new Count();
      const attributes = { ...this.#labels, [label]: value };
      const { id, description } = metric;
      register(Metric.counter(id, { description, incremental: true, attributes }), this.context, count.state);
      counts.set(value, count);
    }
    return count;
  }
}
