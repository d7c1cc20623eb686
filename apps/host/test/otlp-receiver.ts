import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

// The official OTLP definitions (fixtures/otlp-proto/SOURCE.md): what a collector decodes with.
const PROTO_DIR = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "otlp-proto");

const loadTypes = () => {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync([
    "opentelemetry/proto/collector/trace/v1/trace_service.proto",
    "opentelemetry/proto/collector/metrics/v1/metrics_service.proto",
  ]);
  return {
    traces: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    metrics: root.lookupType("opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest"),
  };
};

/** One span as received: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly resource: Readonly<Record<string, unknown>>;
}

/** One export request as it arrived. */
export interface ReceivedExport {
  readonly path: string;
  readonly contentType: string;
  /** The request's headers (the exporter's `OTEL_EXPORTER_OTLP_HEADERS` among them). */
  readonly headers: IncomingMessage["headers"];
  /** The body as bytes read as text (a protobuf string is its UTF-8 bytes): for leak checks. */
  readonly raw: string;
  /** The body decoded (protobuf with the official definitions, or JSON), as JSON-safe data. */
  readonly decoded: Record<string, unknown>;
}

/** A local OTLP/HTTP receiver (`/v1/traces`, `/v1/metrics`) that decodes what it is sent. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  readonly exports: ReceivedExport[];
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  /** The names of every metric received so far. */
  metricNames(): Set<string>;
  close(): Promise<void>;
}

const read = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

/** An OTLP AnyValue as a plain value. */
const plainValue = (v: Record<string, unknown> | undefined): unknown => {
  if (!v) return undefined;
  if ("stringValue" in v) return v.stringValue;
  if ("boolValue" in v) return v.boolValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return Number(v.doubleValue);
  if ("arrayValue" in v) {
    return ((v.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(plainValue);
  }
  return v;
};

const attributesOf = (list: unknown): Record<string, unknown> =>
  Object.fromEntries(
    ((list as Array<{ key: string; value: Record<string, unknown> }> | undefined) ?? []).map((a) => [
      a.key,
      plainValue(a.value),
    ]),
  );

/** Protobuf bytes arrive base64 in `toObject`; OTLP/JSON sends ids as hex. */
const hex = (id: unknown, json: boolean): string =>
  typeof id === "string" && id !== "" ? (json ? id : Buffer.from(id, "base64").toString("hex")) : "";

/** Starts the receiver on 127.0.0.1 with a free port. */
export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const types = loadTypes();
  const exports: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const path = req.url ?? "";
      const contentType = req.headers["content-type"] ?? "";
      const type = path.endsWith("/v1/traces")
        ? types.traces
        : path.endsWith("/v1/metrics")
          ? types.metrics
          : undefined;
      if (!type || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      const decoded = contentType.includes("json")
        ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>)
        : type.toObject(type.decode(body), { longs: String, bytes: String, enums: Number, defaults: false });
      exports.push({ path, contentType, headers: req.headers, raw: body.toString("utf8"), decoded });
      const answer = contentType.includes("json") ? "{}" : "";
      res.writeHead(200, {
        "content-type": contentType.includes("json") ? "application/json" : "application/x-protobuf",
      });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () =>
      exports
        .filter((e) => e.path.endsWith("/v1/traces"))
        .flatMap((e) => {
          const json = e.contentType.includes("json");
          const resourceSpans = (e.decoded.resourceSpans ?? []) as Array<Record<string, unknown>>;
          return resourceSpans.flatMap((rs) => {
            const resource = attributesOf((rs.resource as { attributes?: unknown } | undefined)?.attributes);
            return ((rs.scopeSpans ?? []) as Array<{ spans?: Array<Record<string, unknown>> }>).flatMap(
              (ss) =>
                (ss.spans ?? []).map(
                  (s): ReceivedSpan => ({
                    traceId: hex(s.traceId, json),
                    spanId: hex(s.spanId, json),
                    parentSpanId: hex(s.parentSpanId, json),
                    name: String(s.name),
                    kind: Number(s.kind ?? 0),
                    attributes: attributesOf(s.attributes),
                    statusCode: Number((s.status as { code?: unknown } | undefined)?.code ?? 0),
                    resource,
                  }),
                ),
            );
          });
        }),
    metricNames: () =>
      new Set(
        exports
          .filter((e) => e.path.endsWith("/v1/metrics"))
          .flatMap((e) =>
            (
              (e.decoded.resourceMetrics ?? []) as Array<{
                scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }>;
              }>
            )
              .flatMap((rm) => rm.scopeMetrics ?? [])
              .flatMap((sm) => sm.metrics ?? [])
              .map((m) => m.name),
          ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
