// Read on `quiver serve`'s start-up path, so it imports nothing: with no OTLP variable set, the check
// below is all that telemetry costs (the exporter modules are imported only when it passes).

/** The environment the host reads its settings from. */
type Env = Readonly<Record<string, string | undefined>>;

/** A signal Quiver exports over OTLP. */
export type OtlpSignal = "traces" | "metrics";

/** OTLP's HTTP encodings: `http/protobuf` is the default, `http/json` when a variable says so. */
export type OtlpProtocol = "http/protobuf" | "http/json";

const set = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

const upper = (signal: OtlpSignal) => signal.toUpperCase();

/**
 * True when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces or metrics one) and
 * `OTEL_SDK_DISABLED` is not `true`: only then does `quiver serve` load the exporter.
 */
export const otlpConfigured = (env: Env): boolean =>
  set(env, "OTEL_SDK_DISABLED")?.toLowerCase() !== "true" &&
  (set(env, "OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined ||
    set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== undefined ||
    set(env, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") !== undefined);

/**
 * Where a signal goes, per the OTLP exporter specification: the signal's own endpoint as given, or
 * `/v1/traces` / `/v1/metrics` below the shared one; undefined when neither is set or
 * `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER` names no `otlp` exporter (e.g. `none`).
 */
export const otlpEndpoint = (env: Env, signal: OtlpSignal): string | undefined => {
  const exporters = set(env, `OTEL_${upper(signal)}_EXPORTER`);
  if (exporters && !exporters.split(",").some((e) => e.trim().toLowerCase() === "otlp")) return undefined;
  const own = set(env, `OTEL_EXPORTER_OTLP_${upper(signal)}_ENDPOINT`);
  if (own) return own;
  const base = set(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return base ? `${base.replace(/\/+$/, "")}/v1/${signal}` : undefined;
};

/** A signal's encoding: its own `_PROTOCOL` variable, the shared one, else `http/protobuf`. */
export const otlpProtocol = (env: Env, signal: OtlpSignal): OtlpProtocol | Error => {
  const name = set(env, `OTEL_EXPORTER_OTLP_${upper(signal)}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${upper(signal)}_PROTOCOL`
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const value = set(env, name) ?? "http/protobuf";
  if (value === "http/protobuf" || value === "http/json") return value;
  return new Error(
    `${name}=${value} is not supported: Quiver exports over OTLP/HTTP; set it to http/protobuf (the default) or http/json.`,
  );
};
