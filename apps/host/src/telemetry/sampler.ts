import * as Tracer from "effect/Tracer";

/** Whether a new span is recorded and exported, given its parent (none for a new trace). */
export type Sampler = (parent: Tracer.AnySpan | undefined) => boolean;

/** True for a share `ratio` of trace ids: the lower 64 bits against the ratio, as OpenTelemetry's SDKs compare. */
const byTraceId = (ratio: number) => {
  const bound = BigInt(Math.floor(ratio * 2 ** 53)) << 11n;
  return (traceId: string): boolean => BigInt(`0x${traceId.padStart(32, "0").slice(16)}`) < bound;
};

/**
 * A trace's chance of `ratio`: a caller's trace by its id; a new trace at random (its id is made
 * after this decision, and is random anyway); a span of this process's as its parent was.
 */
const ratioSampler = (ratio: number): Sampler => {
  const keep = byTraceId(ratio);
  return (parent) =>
    parent === undefined
      ? Math.random() < ratio
      : parent._tag === "ExternalSpan"
        ? keep(parent.traceId)
        : parent.sampled;
};

/**
 * The sampler `OTEL_TRACES_SAMPLER` (+ `OTEL_TRACES_SAMPLER_ARG`) names, per the OpenTelemetry SDK
 * environment variables: `always_on` (the default is `parentbased_always_on`), `always_off`,
 * `traceidratio` and the `parentbased_*` forms, which follow a parent's sampled flag (a caller's
 * `traceparent` included). An Error names an unsupported value and what to set instead.
 */
export const samplerFrom = (name: string | undefined, arg: string | undefined): Sampler | Error => {
  const ratio = arg === undefined || arg.trim() === "" ? 1 : Number(arg);
  if (!(ratio >= 0 && ratio <= 1)) {
    return new Error(`OTEL_TRACES_SAMPLER_ARG=${arg} is not a ratio: give a number from 0 to 1.`);
  }
  const root: Record<string, Sampler> = {
    always_on: () => true,
    always_off: () => false,
    traceidratio: ratioSampler(ratio),
  };
  const value = (name?.trim() || "parentbased_always_on").toLowerCase();
  const own = root[value];
  if (own) return own;
  const based = value.startsWith("parentbased_") ? root[value.slice("parentbased_".length)] : undefined;
  if (based) return (parent) => (parent ? parent.sampled : based(undefined));
  return new Error(
    `OTEL_TRACES_SAMPLER=${name} is not supported: use always_on, always_off, traceidratio or parentbased_always_on, parentbased_always_off, parentbased_traceidratio.`,
  );
};

/** `tracer` with its spans' sampling decided by `sampler` (an unsampled span is made but not exported). */
export const sampledTracer = (tracer: Tracer.Tracer, sampler: Sampler): Tracer.Tracer =>
  Tracer.make({
    span: (options) =>
      tracer.span({
        ...options,
        sampled: sampler(options.parent._tag === "Some" ? options.parent.value : undefined),
      }),
    ...(tracer.context ? { context: tracer.context } : {}),
  });
