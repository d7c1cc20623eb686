import type { ErrorKind } from "./api";
import { Chart, colorAt } from "./chart";
import { breakerLevel, ratesOf, type Sample } from "./history";

const fmt = (v: number | undefined, unit = "") =>
  v === undefined ? "–" : `${v >= 100 ? Math.round(v) : Math.round(v * 10) / 10}${unit}`;
const BREAKER = ["closed", "half-open", "open"];

/**
 * The live charts of one tool, from the polls of the host's own metrics: calls per second, latency
 * percentiles, errors by kind, cache hit rate and breaker state.
 */
export const ToolCharts = (props: { tool: string; samples: Sample[] }) => {
  const { samples } = props;
  const times = samples.map((s) => s.t);
  const last = samples[samples.length - 1]?.stats;
  const calls = ratesOf(samples, (s) => s.calls);
  const errors = ratesOf(samples, (s) => s.failures);
  const kinds = [
    ...new Set(samples.flatMap((s) => Object.keys(s.stats.failuresByKind) as ErrorKind[])),
  ].sort();
  const nowRate = calls[calls.length - 1] ?? 0;
  const hit = samples.map((s) => (s.stats.cacheHitRate === undefined ? null : s.stats.cacheHitRate * 100));
  const breaker = last?.breaker;

  if (samples.length === 0)
    return <p class="muted">No figures yet for {props.tool}: they appear within a second.</p>;
  return (
    <div class="charts">
      <Chart
        title="Calls per second"
        times={times}
        lines={[
          { label: "calls/s", values: calls, color: colorAt(0) },
          { label: "errors/s", values: errors, color: colorAt(2) },
        ]}
        summary={`${last?.calls ?? 0} calls, ${last?.failures ?? 0} failed; now ${fmt(nowRate)}/s`}
      />
      <Chart
        title="Latency (ms)"
        times={times}
        lines={[
          { label: "p50", values: samples.map((s) => s.stats.p50Ms ?? null), color: colorAt(0) },
          { label: "p95", values: samples.map((s) => s.stats.p95Ms ?? null), color: colorAt(1) },
          { label: "p99", values: samples.map((s) => s.stats.p99Ms ?? null), color: colorAt(2) },
        ]}
        summary={`p50 ${fmt(last?.p50Ms, " ms")}, p95 ${fmt(last?.p95Ms, " ms")}, p99 ${fmt(last?.p99Ms, " ms")}`}
      />
      <Chart
        title="Errors by kind (per second)"
        times={times}
        lines={
          kinds.length > 0
            ? kinds.map((k, i) => ({
                label: k,
                values: ratesOf(samples, (s) => s.failuresByKind[k] ?? 0),
                color: colorAt(i + 2),
              }))
            : [{ label: "errors/s", values: errors, color: colorAt(2) }]
        }
        summary={
          kinds.length > 0 ? kinds.map((k) => `${k} ${last?.failuresByKind[k] ?? 0}`).join(", ") : "no errors"
        }
      />
      <Chart
        title="Cache hit rate (%)"
        times={times}
        yRange={[0, 100]}
        lines={[{ label: "hit rate", values: hit, color: colorAt(3) }]}
        summary={
          last?.cacheHitRate === undefined ? "no cache lookups" : `${fmt(last.cacheHitRate * 100, "%")} hits`
        }
      />
      <Chart
        title="Circuit breaker"
        times={times}
        yRange={[0, 2]}
        formatY={(v) => BREAKER[Math.round(v)] ?? ""}
        lines={[
          {
            label: "state",
            values: samples.map((s) => breakerLevel(s.stats.breaker)),
            color: colorAt(4),
            stepped: true,
          },
        ]}
        summary={breaker ? (BREAKER[breakerLevel(breaker)] ?? "") : "no breaker"}
      />
    </div>
  );
};
