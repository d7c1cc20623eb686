import { createCatalog } from "@quiver/core";
import alphafold from "@quiver/plugin-alphafold";
import context7 from "@quiver/plugin-context7";
import fda from "@quiver/plugin-fda";
import perplexity from "@quiver/plugin-perplexity";
import rag from "@quiver/plugin-rag";
import testgen from "@quiver/plugin-testgen";
import type { Fault } from "@quiver/testing";
import { Layer, Tracer } from "effect";
import { MATRIX_ROWS } from "./cases.js";
import { type MatrixKeys, pluginSettings, type Upstreams } from "./upstreams.js";

/** The faults whose failures carry the most text (messages, causes, upstream bodies). */
const FAULTS: ReadonlyArray<{ fault: Fault; timeoutMs?: number }> = [
  { fault: { kind: "reset" } },
  { fault: { kind: "status", status: 500, body: { error: { message: "emulated failure" } } } },
  { fault: { kind: "status", status: 401 } },
  { fault: { kind: "invalidJson" } },
  { fault: { kind: "htmlError", status: 502 } },
  { fault: { kind: "hang" }, timeoutMs: 500 },
];

/** A span's name, attributes, events and exit as text. */
const spanText = (span: Tracer.NativeSpan): string =>
  JSON.stringify(
    {
      name: span.name,
      attributes: Object.fromEntries(span.attributes),
      events: span.events,
      status: span.status,
    },
    (_key, value: unknown) =>
      typeof value === "bigint"
        ? String(value)
        : value instanceof Map
          ? Object.fromEntries(value)
          : value instanceof Error
            ? { ...value, name: value.name, message: value.message, stack: value.stack, cause: value.cause }
            : value,
  );

/**
 * Calls every matrix row's tool in process, in a catalog with a recording tracer (the hook an
 * OpenTelemetry exporter uses) and the keys in the plugins' environment variables, under a few
 * faults; returns every span as text.
 */
export const tracedCalls = async (
  up: Upstreams,
  keys: MatrixKeys,
): Promise<{ calls: number; spans: string[] }> => {
  const spans: Tracer.NativeSpan[] = [];
  const recording = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options);
      spans.push(span);
      return span;
    },
  });
  const settings = pluginSettings(up, keys);
  const catalog = createCatalog({
    env: settings.env,
    layer: Layer.succeed(Tracer.Tracer, recording),
    policies: { "*": { breaker: false, rateLimit: false, cache: false, retry: false } },
  });
  for (const plugin of [context7, perplexity, rag, testgen]) catalog.register(plugin);
  catalog.register(fda, settings.options.fda);
  catalog.register(alphafold, settings.options.alphafold);
  let calls = 0;
  try {
    const lanes = [...new Set(MATRIX_ROWS.map((r) => r.lane))];
    await Promise.all(
      lanes.map(async (lane) => {
        for (const row of MATRIX_ROWS.filter((r) => r.lane === lane)) {
          for (const [n, f] of FAULTS.entries()) {
            const handle = up[row.upstream].fault(row.method, row.path, f.fault);
            try {
              await catalog.call(row.tool, row.input(up), {
                session: { id: `traced-${row.id}-${n}`, principal: `traced-${n}` },
                ...(f.timeoutMs === undefined ? {} : { timeoutMs: f.timeoutMs }),
              });
              calls++;
            } finally {
              handle.remove();
            }
          }
        }
      }),
    );
  } finally {
    await catalog.close();
  }
  return { calls, spans: spans.map(spanText) };
};
