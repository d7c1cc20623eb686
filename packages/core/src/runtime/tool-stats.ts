import type * as Context from "effect/Context";
import * as Metric from "effect/Metric";
import type { ErrorKind } from "../errors.js";
import { cacheLookups, register, toolCalls, toolFailures, toolLatencySummary } from "./metrics.js";

const BREAKER_STATE = {
  description:
    "Circuit breaker state by breaker key: 0 closed, 1 half-open, 2 open (as read at the previous snapshot)",
} as const;
/** Each circuit breaker's state (0 closed, 1 half-open, 2 open). */
export const breakerState = Metric.gauge("quiver_breaker_state", BREAKER_STATE);
const BREAKER_CODE = { Closed: 0, HalfOpen: 1, Open: 2 } as const;

/**
 * Registers a breaker's state gauge in the runtime's registry. A snapshot is synchronous and the
 * state lives in the breaker's store (Redis, for replicas), so each snapshot reports the state read
 * for the one before and starts the next read: no call pays for it.
 */
export const registerBreakerState = (
  key: string,
  context: Context.Context<never>,
  read: () => Promise<keyof typeof BREAKER_CODE | undefined>,
): void => {
  let value = 0;
  register(Metric.gauge(breakerState.id, { ...BREAKER_STATE, attributes: { breaker: key } }), context, () => {
    read()
      .then((state) => {
        if (state) value = BREAKER_CODE[state];
      })
      .catch(() => undefined);
    return { value };
  });
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
  /** The 99th percentile of the call latency over the last 10 minutes, as p50Ms and p95Ms. */
  readonly p99Ms: number | undefined;
  readonly cacheHitRate: number | undefined;
  readonly breaker?: "Closed" | "Open" | "HalfOpen";
}

/** What `summarise` adds up for one tool. */
class Tally {
  calls = 0;
  successes = 0;
  readonly failuresByKind: Partial<Record<ErrorKind, number>> = {};
  quantiles: ReadonlyMap<number, number | undefined> = new Map();
  hits = 0;
  misses = 0;
  constructor(readonly plugin: string) {}
}

/** Folds the metric snapshot into per-tool stats. */
export const summarise = (
  snapshot: ReadonlyArray<Metric.Metric.Snapshot>,
  tools: Iterable<{ readonly name: string; readonly pluginId: string }>,
): ToolStats[] => {
  const byTool = new Map<string, Tally>();
  for (const { name, pluginId } of tools) byTool.set(name, new Tally(pluginId));
  for (const s of snapshot) {
    const a = s.attributes ?? {};
    const e = a.tool === undefined ? undefined : byTool.get(a.tool);
    if (!e) continue;
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
      e.quantiles = new Map(s.state.quantiles);
    }
  }
  return [...byTool.entries()].map(([tool, e]) => ({
    tool,
    plugin: e.plugin,
    calls: e.calls,
    successes: e.successes,
    failures: e.calls - e.successes,
    failuresByKind: e.failuresByKind,
    p50Ms: e.quantiles.get(0.5),
    p95Ms: e.quantiles.get(0.95),
    p99Ms: e.quantiles.get(0.99),
    cacheHitRate: e.hits + e.misses > 0 ? e.hits / (e.hits + e.misses) : undefined,
  }));
};
