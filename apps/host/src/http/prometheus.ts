import type { Catalog } from "@quiver/core";

/** One metric snapshot as `catalog.metrics()` returns it (Effect's Metric.Metric.Snapshot). */
export type MetricSnapshot = Awaited<ReturnType<Catalog["metrics"]>>[number];

/** An extra gauge the host adds (in-flight calls, plugins ...). */
export interface ExtraGauge {
  readonly name: string;
  readonly help: string;
  readonly samples: ReadonlyArray<{
    readonly labels?: Readonly<Record<string, string>>;
    readonly value: number;
  }>;
}

const metricName = (id: string) => {
  const n = id.replace(/[^a-zA-Z0-9_:]/g, "_");
  return /^[a-zA-Z_:]/.test(n) ? n : `_${n}`;
};
const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const labelName = (k: string) => k.replace(/[^a-zA-Z0-9_]/g, "_").replace(/^(\d)/, "_$1");

const labels = (attrs: Readonly<Record<string, unknown>> | undefined, extra: Record<string, string> = {}) => {
  const all = {
    ...Object.fromEntries(Object.entries(attrs ?? {}).map(([k, v]) => [labelName(k), String(v)])),
    ...extra,
  };
  const parts = Object.entries(all).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length > 0 ? `{${parts.join(",")}}` : "";
};
const num = (v: number | bigint | undefined) =>
  v === undefined
    ? "NaN"
    : typeof v === "bigint"
      ? v.toString()
      : Number.isNaN(v)
        ? "NaN"
        : v === Infinity
          ? "+Inf"
          : v === -Infinity
            ? "-Inf"
            : String(v);

const TYPE: Record<MetricSnapshot["type"], string> = {
  Counter: "counter",
  Gauge: "gauge",
  Frequency: "counter",
  Histogram: "histogram",
  Summary: "summary",
};

/**
 * Renders metric snapshots in the Prometheus text exposition format (0.0.4): counters, gauges,
 * frequencies (as counters with a `value` label), histograms with cumulative `le` buckets plus
 * `+Inf`, `_sum` and `_count`, and summaries with `quantile` samples.
 *
 * @example
 * res.setHeader("content-type", PROMETHEUS_CONTENT_TYPE)
 * res.end(toPrometheus(await catalog.metrics()))
 */
export const toPrometheus = (
  snapshots: ReadonlyArray<MetricSnapshot>,
  extra: ReadonlyArray<ExtraGauge> = [],
): string => {
  const groups = new Map<string, MetricSnapshot[]>();
  for (const s of snapshots) {
    const list = groups.get(s.id) ?? [];
    list.push(s);
    groups.set(s.id, list);
  }
  const out: string[] = [];
  for (const [id, list] of groups) {
    const first = list[0]!;
    const name = metricName(id);
    if (first.description) out.push(`# HELP ${name} ${escapeHelp(first.description)}`);
    out.push(`# TYPE ${name} ${TYPE[first.type]}`);
    for (const s of list) {
      const attrs = s.attributes as Readonly<Record<string, unknown>> | undefined;
      switch (s.type) {
        case "Counter":
          out.push(`${name}${labels(attrs)} ${num(s.state.count)}`);
          break;
        case "Gauge":
          out.push(`${name}${labels(attrs)} ${num(s.state.value)}`);
          break;
        case "Frequency":
          for (const [value, n] of s.state.occurrences) out.push(`${name}${labels(attrs, { value })} ${n}`);
          break;
        case "Histogram": {
          for (const [le, n] of s.state.buckets)
            out.push(`${name}_bucket${labels(attrs, { le: num(le) })} ${n}`);
          out.push(`${name}_bucket${labels(attrs, { le: "+Inf" })} ${s.state.count}`);
          out.push(`${name}_sum${labels(attrs)} ${num(s.state.sum)}`);
          out.push(`${name}_count${labels(attrs)} ${s.state.count}`);
          break;
        }
        case "Summary": {
          for (const [q, v] of s.state.quantiles)
            out.push(`${name}${labels(attrs, { quantile: String(q) })} ${num(v)}`);
          out.push(`${name}_sum${labels(attrs)} ${num(s.state.sum)}`);
          out.push(`${name}_count${labels(attrs)} ${s.state.count}`);
          break;
        }
      }
    }
  }
  for (const g of extra) {
    const name = metricName(g.name);
    out.push(`# HELP ${name} ${escapeHelp(g.help)}`, `# TYPE ${name} gauge`);
    for (const s of g.samples) out.push(`${name}${labels(s.labels)} ${num(s.value)}`);
  }
  return `${out.join("\n")}\n`;
};

/** The content type of the Prometheus text format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
