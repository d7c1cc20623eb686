import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Emulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenFdaEmulator } from "../../../packages/plugins/fda/test/support/openfda-emulator.js";
import {
  CLI,
  cleanEnv,
  eventually,
  makeProject,
  type Project,
  type ServeProcess,
  startServe,
} from "./helpers.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver.js";

// Issue 30: `quiver serve` with OTEL_EXPORTER_OTLP_ENDPOINT set exports GenAI-convention spans and
// metrics that a real OTLP/HTTP receiver decodes with the official protobuf definitions.

const KEY = "qcanary-otlp-key-4d1e9b";
const HEADER_KEY = "qcanary-otlp-header-77c0";
const INPUT = { search_criteria: { brand_name: "Ozempic" } };
const KIND = { internal: 1, server: 2, client: 3 } as const;

/** A W3C traceparent for a caller's span, sampled. */
const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;

interface Running {
  readonly receiver: OtlpReceiver;
  readonly fda: Emulator;
  readonly project: Project;
  readonly server: ServeProcess;
}

/** The fda plugin against its emulator, served with OTLP export to a local receiver. */
const start = async (env: Record<string, string>): Promise<Running> => {
  const receiver = await startOtlpReceiver();
  const { up: fda } = await startOpenFdaEmulator();
  const project = makeProject({ workspace: ["@quiver/plugin-fda"] });
  writeFileSync(
    join(project.dir, "quiver.config.json"),
    JSON.stringify({
      plugins: { fda: { options: { baseUrl: fda.url } } },
      // A quick retry, and no shared rate limit between the test's calls (fda's breaker stays on).
      policies: { "*": { retry: { times: 2, base: "20 millis" }, rateLimit: false } },
      find: false,
    }),
  );
  const server = await startServe([], {
    cwd: project.dir,
    env: {
      OPENFDA_API_KEY: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${HEADER_KEY}`,
      OTEL_SERVICE_NAME: "quiver-otlp-test",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_METRIC_EXPORT_INTERVAL: "200",
      ...env,
    },
  });
  return { receiver, fda, project, server };
};

const stop = async (r: Running | undefined) => {
  if (!r) return;
  r.server.child.kill("SIGTERM");
  await r.server.exited;
  await r.fda.close();
  await r.receiver.close();
  r.project.cleanup();
};

const callOverHttp = async (url: string, headers: Record<string, string>) => {
  const res = await fetch(`${url}/tools/fda_search_drugs/call`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(INPUT),
  });
  return (await res.json()) as {
    status: string;
    metadata: { attempts: number; cached: boolean; callId: string };
  };
};

const inTrace = (spans: ReceivedSpan[], traceId: string) => spans.filter((s) => s.traceId === traceId);
const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) =>
  spans.filter((s) => parent !== undefined && s.parentSpanId === parent.spanId);

describe("OTLP export over http/protobuf (the default)", () => {
  let run: Running | undefined;
  beforeAll(async () => {
    run = await start({});
  }, 60_000);
  afterAll(() => stop(run));

  it("exports a failing-then-retried call, a cache hit and an MCP call, joined to the callers' traces", async () => {
    const { receiver, fda, server } = run!;
    expect(server.stderr()).toContain(`OpenTelemetry: traces to ${receiver.url}/v1/traces (http/protobuf)`);

    // 1. Over the HTTP API, with the caller's trace: the first upstream answer is a 503, the retry succeeds.
    const t1 = "4bf92f3577b34da6a3ce929d0e0e4736";
    fda.fault("GET", "/drug/drugsfda.json", { kind: "status", status: 503 }, { times: 1 });
    const first = await callOverHttp(server.url, {
      traceparent: traceparent(t1, "00f067aa0ba902b7"),
      tracestate: "agent=demo",
    });
    expect(first).toMatchObject({ status: "success", metadata: { attempts: 2, cached: false } });
    // 2. The same call again: a cache hit, in a trace of its own.
    const t2 = "5bf92f3577b34da6a3ce929d0e0e4737";
    const second = await callOverHttp(server.url, { traceparent: traceparent(t2, "10f067aa0ba902b7") });
    expect(second.metadata.cached).toBe(true);
    // 3. Over MCP (Streamable HTTP), with the trace context in params._meta.
    const t3 = "6bf92f3577b34da6a3ce929d0e0e4738";
    const client = new Client({ name: "otlp-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const viaMcp = await client.callTool({
      name: "fda_search_drugs",
      arguments: INPUT,
      _meta: { traceparent: traceparent(t3, "20f067aa0ba902b7") },
    });
    expect(viaMcp.isError).toBeFalsy();
    await client.close();
    // 4. Over MCP with the trace context in the HTTP request's headers instead.
    const t4 = "9bf92f3577b34da6a3ce929d0e0e473b";
    const headered = new Client({ name: "otlp-test", version: "1.0.0" });
    await headered.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { traceparent: traceparent(t4, "50f067aa0ba902b7") } },
      }),
    );
    await headered.callTool({ name: "fda_search_drugs", arguments: INPUT });
    await headered.close();

    await eventually(
      () =>
        inTrace(receiver.spans(), t1).length >= 5 &&
        inTrace(receiver.spans(), t2).length >= 1 &&
        inTrace(receiver.spans(), t3).length >= 2 &&
        inTrace(receiver.spans(), t4).length >= 2,
      15_000,
    );
    const spans = receiver.spans();

    // The retried call: execute_tool under the caller's span, two attempts, one request each.
    const trace1 = inTrace(spans, t1);
    const [call] = named(trace1, "execute_tool fda_search_drugs");
    expect(call).toMatchObject({ parentSpanId: "00f067aa0ba902b7", kind: KIND.internal, statusCode: 1 });
    expect(call?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "fda_search_drugs",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": first.metadata.callId,
      "quiver.status": "success",
      "quiver.attempts": 2,
      "quiver.cached": false,
      "quiver.stale": false,
      "quiver.plugin": "fda",
    });
    expect(call?.attributes["quiver.principal"]).toBeUndefined();
    expect(call?.resource).toMatchObject({
      "service.name": "quiver-otlp-test",
      "deployment.environment": "test",
    });
    const attempts = childrenOf(trace1, call).sort(
      (a, b) => Number(a.attributes["quiver.attempt"]) - Number(b.attributes["quiver.attempt"]),
    );
    expect(attempts.map((a) => [a.name, a.attributes["quiver.attempt"], a.statusCode])).toEqual([
      ["quiver.attempt", 1, 2],
      ["quiver.attempt", 2, 1],
    ]);
    expect(attempts[0]?.attributes["error.type"]).toBe("unavailable");
    const failedRequest = childrenOf(trace1, attempts[0]);
    const okRequest = childrenOf(trace1, attempts[1]);
    expect(
      failedRequest.map((s) => [
        s.name,
        s.kind,
        s.attributes["http.response.status_code"],
        s.attributes["error.type"],
      ]),
    ).toEqual([["GET /drug/{endpoint}.json", KIND.client, 503, "503"]]);
    expect(okRequest[0]).toMatchObject({
      name: "GET /drug/{endpoint}.json",
      kind: KIND.client,
      statusCode: 1,
    });
    expect(okRequest[0]?.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "server.port": Number(new URL(fda.url).port),
      "url.template": "/drug/{endpoint}.json",
      "http.response.status_code": 200,
    });
    // Each upstream request carried its own span as the parent, and the caller's tracestate.
    const upstream = fda.requests.filter((r) => r.headers.traceparent?.includes(t1));
    expect(upstream.map((r) => r.headers.traceparent)).toEqual(
      [...failedRequest, ...okRequest].map((s) => traceparent(t1, s.spanId)),
    );
    expect(upstream.every((r) => r.headers.tracestate === "agent=demo")).toBe(true);

    // The cache hit: one execute_tool span, cached, no attempt.
    const trace2 = inTrace(spans, t2);
    expect(trace2.map((s) => s.name)).toEqual(["execute_tool fda_search_drugs"]);
    expect(trace2[0]?.attributes).toMatchObject({ "quiver.cached": true, "quiver.status": "success" });

    // The MCP call: the server span under the caller's, execute_tool under it.
    const trace3 = inTrace(spans, t3);
    const [mcp] = named(trace3, "tools/call fda_search_drugs");
    expect(mcp).toMatchObject({ kind: KIND.server, parentSpanId: "20f067aa0ba902b7" });
    expect(mcp?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "fda_search_drugs",
      "network.transport": "tcp",
    });
    expect(typeof mcp?.attributes["mcp.session.id"]).toBe("string");
    expect(childrenOf(trace3, mcp).map((s) => s.name)).toEqual(["execute_tool fda_search_drugs"]);
    const [fromHeader] = named(inTrace(spans, t4), "tools/call fda_search_drugs");
    expect(fromHeader?.parentSpanId).toBe("50f067aa0ba902b7");

    // The exporter sent OTEL_EXPORTER_OTLP_HEADERS; neither key is in any payload or log line.
    expect(receiver.exports[0]?.headers.authorization).toBe(`Bearer ${HEADER_KEY}`);
    for (const e of receiver.exports) {
      expect(e.raw).not.toContain(KEY);
      expect(JSON.stringify(e.decoded)).not.toContain(KEY);
      expect(e.raw).not.toContain(HEADER_KEY);
    }
    expect(fda.requests.some((r) => r.query.get("api_key") === KEY)).toBe(true);
    expect(server.stderr()).not.toContain(HEADER_KEY);
  }, 60_000);

  it("exports the tool metrics beside /metrics: duration histogram, calls by status, cache lookups, breaker state", async () => {
    const { receiver, server } = run!;
    await eventually(() => receiver.metricNames().has("quiver_cache_lookups_total"), 15_000);
    const names = receiver.metricNames();
    for (const name of [
      "quiver_tool_calls_total",
      "quiver_tool_call_duration_ms",
      "quiver_cache_lookups_total",
      "quiver_breaker_state",
    ]) {
      expect(names).toContain(name);
    }
    const prometheus = await (await fetch(`${server.url}/metrics`)).text();
    expect(prometheus).toContain(
      'quiver_cache_lookups_total{tool="fda_search_drugs",plugin="fda",result="hit"}',
    );
  }, 30_000);
});

describe("OTLP export over http/json, with a parent-based sampler", () => {
  let run: Running | undefined;
  beforeAll(async () => {
    run = await start({
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_TRACES_SAMPLER: "parentbased_always_off",
    });
  }, 60_000);
  afterAll(() => stop(run));

  it("sends JSON, exports the trace a sampled caller started and leaves out unsampled roots", async () => {
    const { receiver, server } = run!;
    expect(server.stderr()).toContain("(http/json)");
    await callOverHttp(server.url, {});
    const sampled = "7bf92f3577b34da6a3ce929d0e0e4739";
    await callOverHttp(server.url, { traceparent: traceparent(sampled, "30f067aa0ba902b7") });
    await eventually(() => inTrace(receiver.spans(), sampled).length >= 1, 15_000);
    const traces = receiver.exports.filter((e) => e.path === "/v1/traces");
    expect(traces.every((e) => e.contentType.startsWith("application/json"))).toBe(true);
    // The root call without a caller's trace was not sampled: every exported span is in the caller's trace.
    expect(new Set(receiver.spans().map((s) => s.traceId))).toEqual(new Set([sampled]));
    expect(named(receiver.spans(), "execute_tool fda_search_drugs")[0]?.parentSpanId).toBe(
      "30f067aa0ba902b7",
    );
  }, 60_000);
});

describe("OTLP export from quiver serve --stdio", () => {
  it("joins the trace in params._meta, names the principal when asked, and flushes when stdin closes", async () => {
    const receiver = await startOtlpReceiver();
    const project = makeProject({ fixtures: ["echo"] });
    try {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--stdio"],
        cwd: project.dir,
        env: cleanEnv({
          QUIVER_PRINCIPAL: "carol",
          QUIVER_TRACE_PRINCIPAL: "true",
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        }),
        stderr: "pipe",
      });
      const client = new Client({ name: "otlp-stdio-test", version: "1.0.0" });
      await client.connect(transport);
      const trace = "8bf92f3577b34da6a3ce929d0e0e473a";
      const r = await client.callTool({
        name: "echo_text",
        arguments: { text: "traced" },
        _meta: { traceparent: traceparent(trace, "40f067aa0ba902b7") },
      });
      expect(r.isError).toBeFalsy();
      // The export interval is the default 5 s: these spans arrive with the flush at shutdown.
      await client.close();
      await eventually(() => inTrace(receiver.spans(), trace).length >= 2, 15_000);
      const spans = inTrace(receiver.spans(), trace);
      const [mcp] = named(spans, "tools/call echo_text");
      expect(mcp).toMatchObject({ kind: KIND.server, parentSpanId: "40f067aa0ba902b7" });
      expect(mcp?.attributes).toMatchObject({ "mcp.method.name": "tools/call", "network.transport": "pipe" });
      const [call] = childrenOf(spans, mcp);
      expect(call?.name).toBe("execute_tool echo_text");
      expect(call?.attributes["quiver.principal"]).toBe("carol");
      // Only the traces endpoint was set: no metrics were sent.
      expect(receiver.exports.every((e) => e.path === "/v1/traces")).toBe(true);
    } finally {
      await receiver.close();
      project.cleanup();
    }
  }, 60_000);
});
