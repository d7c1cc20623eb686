// Imported by `quiver serve` only when an OTLP endpoint is set (`otlpConfigured`): Effect's OTLP
// exporters, its fetch-based HTTP client and the protobuf encoder stay unloaded otherwise.
import * as ConfigProvider from "effect/ConfigProvider";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as FetchHttpClient from "effect/http/FetchHttpClient";
import * as Layer from "effect/Layer";
import * as OtlpExporter from "effect/observability/OtlpExporter";
import * as OtlpMetrics from "effect/observability/OtlpMetrics";
import * as OtlpSerialization from "effect/observability/OtlpSerialization";
import * as OtlpTracer from "effect/observability/OtlpTracer";
import * as Redacted from "effect/Redacted";
import * as Tracer from "effect/Tracer";
import pkg from "../../package.json" with { type: "json" };
import { type OtlpProtocol, type OtlpSignal, otlpEndpoint, otlpProtocol } from "./otlp-settings.js";
import { sampledTracer, samplerFrom } from "./sampler.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What `quiver serve` exports, and the layer that exports it (given to the catalog). */
export interface OtlpTelemetry {
  /** The tracer and metrics exporters; their scope's close flushes what is buffered. */
  readonly layer: Layer.Layer<never>;
  /** One line for the start-up log: where each signal goes and how (never a header). */
  readonly summary: string;
  /** `QUIVER_TRACE_PRINCIPAL=true`: each call's span names its principal. */
  readonly principal: boolean;
}

/**
 * `OTEL_EXPORTER_OTLP_HEADERS` (then the signal's own `_HEADERS`, which wins per name) as the
 * specification writes them, `name=value` pairs separated by commas with URL-encoded values. The
 * values stay `Redacted` (they often hold an API key) until the exporter sends them.
 */
const headersOf = (env: Env, signal: OtlpSignal): Record<string, Redacted.Redacted<string>> => {
  const out: Record<string, Redacted.Redacted<string>> = {};
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_HEADERS`]) {
    for (const pair of (env[name] ?? "").split(",")) {
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const key = pair.slice(0, at).trim().toLowerCase();
      const raw = pair.slice(at + 1).trim();
      let value = raw;
      try {
        value = decodeURIComponent(raw);
      } catch {
        /* not URL-encoded: sent as written */
      }
      out[key] = Redacted.make(value);
    }
  }
  return out;
};

const reveal = (headers: Record<string, Redacted.Redacted<string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Redacted.value(v)]));

const serialization = (protocol: OtlpProtocol) =>
  protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf;

/** A millisecond setting (`OTEL_BSP_SCHEDULE_DELAY`, `OTEL_METRIC_EXPORT_INTERVAL`), or its default. */
const millis = (env: Env, name: string, fallback: number): Duration.Duration => {
  const n = Number(env[name]);
  return Duration.millis(Number.isFinite(n) && n > 0 ? n : fallback);
};

/**
 * The OTLP exporters `quiver serve` runs with, from the standard variables: traces (through the
 * `OTEL_TRACES_SAMPLER` sampler) and the catalog's metrics, each to its endpoint in its encoding
 * (`http/protobuf` or `http/json`), with `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` as the
 * resource. Built on Effect's own OTLP modules: the README's "Telemetry" says why not the
 * OpenTelemetry SDK. An Error names a variable with a value it cannot use.
 */
export const otlpTelemetry = (env: Env): OtlpTelemetry | Error => {
  const sampler = samplerFrom(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG);
  if (sampler instanceof Error) return sampler;
  const named =
    env.OTEL_SERVICE_NAME?.trim() || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const resource = {
    // Effect reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES itself; a name given here would win.
    ...(named ? {} : { serviceName: "quiver" }),
    ...(env.OTEL_SERVICE_VERSION ? {} : { serviceVersion: pkg.version }),
  };
  const layers: Layer.Layer<never>[] = [];
  const lines: string[] = [];

  const tracesUrl = otlpEndpoint(env, "traces");
  if (tracesUrl) {
    const protocol = otlpProtocol(env, "traces");
    if (protocol instanceof Error) return protocol;
    const tracer = Effect.map(
      OtlpTracer.make({
        url: tracesUrl,
        resource,
        headers: reveal(headersOf(env, "traces")),
        exportInterval: millis(env, "OTEL_BSP_SCHEDULE_DELAY", 5_000),
      }),
      (otlp) => sampledTracer(otlp, sampler),
    );
    layers.push(
      Layer.effect(Tracer.Tracer, tracer).pipe(Layer.provide(serialization(protocol))) as Layer.Layer<
        never,
        never,
        never
      >,
    );
    lines.push(`traces to ${tracesUrl} (${protocol})`);
  }

  const metricsUrl = otlpEndpoint(env, "metrics");
  if (metricsUrl) {
    const protocol = otlpProtocol(env, "metrics");
    if (protocol instanceof Error) return protocol;
    layers.push(
      Layer.effectDiscard(
        OtlpMetrics.make({
          url: metricsUrl,
          resource,
          headers: reveal(headersOf(env, "metrics")),
          exportInterval: millis(env, "OTEL_METRIC_EXPORT_INTERVAL", 60_000),
        }),
      ).pipe(Layer.provide(serialization(protocol))) as Layer.Layer<never, never, never>,
    );
    lines.push(`metrics to ${metricsUrl} (${protocol})`);
  }

  const [first, ...rest] = layers;
  const layer = (first ? Layer.mergeAll(first, ...rest) : Layer.empty).pipe(
    Layer.provide(OtlpExporter.layerFlusher),
    Layer.provide(FetchHttpClient.layer),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ ...env }))),
  ) as Layer.Layer<never>;
  return {
    layer,
    summary: `OpenTelemetry: ${lines.join(", ") || "nothing (OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER say none)"}`,
    principal: env.QUIVER_TRACE_PRINCIPAL?.trim().toLowerCase() === "true",
  };
};
