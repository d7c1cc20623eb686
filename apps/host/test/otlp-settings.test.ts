import { Tracer } from "effect";
import { describe, expect, it } from "vitest";
import { otlpConfigured, otlpEndpoint, otlpProtocol } from "../src/telemetry/otlp-settings.js";
import { samplerFrom } from "../src/telemetry/sampler.js";

const remote = (sampled: boolean, traceId = "0af7651916cd43dd8448eb211c80319c") =>
  Tracer.externalSpan({ traceId, spanId: "b7ad6b7169203331", sampled });

describe("OTLP settings from the standard variables", () => {
  it("is configured only by an endpoint variable, and OTEL_SDK_DISABLED=true turns it off", () => {
    expect(otlpConfigured({})).toBe(false);
    expect(otlpConfigured({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe(false);
    expect(otlpConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toBe(true);
    expect(otlpConfigured({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://c:4318/m" })).toBe(true);
    expect(otlpConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBe(
      false,
    );
  });

  it("sends each signal below the base endpoint, or to its own, unless its exporter is none", () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/otlp/" };
    expect(otlpEndpoint(base, "traces")).toBe("http://c:4318/otlp/v1/traces");
    expect(otlpEndpoint({ ...base, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://m:9/x" }, "metrics")).toBe(
      "http://m:9/x",
    );
    expect(
      otlpEndpoint({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:1/v1/traces" }, "metrics"),
    ).toBeUndefined();
    expect(otlpEndpoint({ ...base, OTEL_METRICS_EXPORTER: "none" }, "metrics")).toBeUndefined();
    expect(otlpEndpoint({ ...base, OTEL_TRACES_EXPORTER: "console,otlp" }, "traces")).toBeDefined();
  });

  it("encodes in http/protobuf unless a protocol variable says http/json, and names one it cannot use", () => {
    expect(otlpProtocol({}, "traces")).toBe("http/protobuf");
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }, "metrics")).toBe("http/json");
    expect(
      otlpProtocol(
        { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" },
        "traces",
      ),
    ).toBe("http/protobuf");
    const grpc = otlpProtocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" }, "traces");
    expect(grpc).toBeInstanceOf(Error);
    expect((grpc as Error).message).toMatch(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc .*http\/protobuf/);
  });
});

describe("OTEL_TRACES_SAMPLER", () => {
  it("follows a caller's sampled flag by default (parentbased_always_on)", () => {
    const sampler = samplerFrom(undefined, undefined) as (p?: Tracer.AnySpan) => boolean;
    expect(sampler(undefined)).toBe(true);
    expect(sampler(remote(false))).toBe(false);
    expect(sampler(remote(true))).toBe(true);
  });

  it("always_on and always_off ignore the parent; parentbased_always_off samples only sampled callers", () => {
    const on = samplerFrom("always_on", undefined) as (p?: Tracer.AnySpan) => boolean;
    const off = samplerFrom("always_off", undefined) as (p?: Tracer.AnySpan) => boolean;
    const based = samplerFrom("parentbased_always_off", undefined) as (p?: Tracer.AnySpan) => boolean;
    expect([on(undefined), on(remote(false)), off(undefined), off(remote(true))]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([based(undefined), based(remote(true)), based(remote(false))]).toEqual([false, true, false]);
  });

  it("traceidratio decides a caller's trace by its id, the same way every time", () => {
    const half = samplerFrom("traceidratio", "0.5") as (p?: Tracer.AnySpan) => boolean;
    expect(half(remote(false, "00000000000000000000000000000001"))).toBe(true);
    expect(half(remote(true, "0000000000000000ffffffffffffffff"))).toBe(false);
    const none = samplerFrom("traceidratio", "0") as (p?: Tracer.AnySpan) => boolean;
    const all = samplerFrom("traceidratio", "1") as (p?: Tracer.AnySpan) => boolean;
    expect([none(undefined), all(undefined)]).toEqual([false, true]);
  });

  it("names an unsupported sampler or ratio and what to set instead", () => {
    expect(String(samplerFrom("jaeger_remote", undefined))).toMatch(
      /OTEL_TRACES_SAMPLER=jaeger_remote .*always_on/,
    );
    expect(String(samplerFrom("traceidratio", "2"))).toMatch(/OTEL_TRACES_SAMPLER_ARG=2 .*0 to 1/);
  });
});
