import { Effect, Layer, Redacted, Tracer } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type LocalServer, startServer } from "../src/http/local-server.test-helpers.js";
import { createCatalog, definePlugin, defineTool, fail } from "../src/index.js";

const CANARY = "sk-canary-5f3c9a1e";

/** A tracer that keeps every span it makes (what an OTLP exporter would be handed). */
const recordingTracer = () => {
  const spans: Tracer.NativeSpan[] = [];
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options);
      spans.push(span);
      return span;
    },
  });
  return { spans, layer: Layer.succeed(Tracer.Tracer, tracer) };
};

/** A tool that asks a local upstream with its key in the query, naming the route template. */
const upstreamPlugin = (origin: string) =>
  definePlugin({
    specificationVersion: "v1",
    id: "up",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "up_fetch",
        description: "Fetches a record from the local upstream.",
        category: "computational_service",
        input: z.object({ id: z.string().describe("Record id") }),
        output: z.object({ id: z.string() }),
        examples: [{ input: { id: "a" } }],
        annotations: { readOnly: true, openWorld: true },
        policy: { retry: false, cache: { ttl: "1m" } },
        run: async ({ id }, ctx) =>
          ctx.http.json({
            url: `${origin}/records/${id}`,
            route: "/records/{id}",
            query: { api_key: Redacted.make(CANARY) },
            schema: z.object({ id: z.string() }),
            signal: ctx.signal,
          }),
      }),
    ],
  });

const attr = (span: Tracer.NativeSpan | undefined, key: string) => span?.attributes.get(key);
const parentId = (span: Tracer.NativeSpan | undefined) =>
  span?.parent._tag === "Some" ? span.parent.value.spanId : undefined;

describe("call spans (OpenTelemetry GenAI conventions)", () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("makes execute_tool → attempt → client request spans, joins the caller's trace and sends traceparent upstream", async () => {
    let status = 200;
    server = await startServer((req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: req.url?.split("/")[2]?.split("?")[0] ?? "" }));
    });
    const { spans, layer } = recordingTracer();
    const catalog = createCatalog({ layer });
    catalog.register(upstreamPlugin(server.origin));
    const callerTrace = "0af7651916cd43dd8448eb211c80319c";
    const r = await catalog.call(
      "up_fetch",
      { id: "a" },
      { trace: { traceparent: `00-${callerTrace}-b7ad6b7169203331-01`, tracestate: "vendor=x" } },
    );
    expect(r.status).toBe("success");

    const call = spans.find((s) => s.name === "execute_tool up_fetch");
    const attempt = spans.find((s) => s.name === "quiver.attempt");
    const request = spans.find((s) => s.name === "GET /records/{id}");
    expect(call?.kind).toBe("internal");
    expect(call?.traceId).toBe(callerTrace);
    expect(parentId(call)).toBe("b7ad6b7169203331");
    expect(Object.fromEntries(call?.attributes ?? [])).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "up_fetch",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": r.metadata.callId,
      "quiver.status": "success",
      "quiver.attempts": 1,
      "quiver.cached": false,
      "quiver.stale": false,
    });
    expect(attr(call, "quiver.principal")).toBeUndefined();
    expect(parentId(attempt)).toBe(call?.spanId);
    expect(attr(attempt, "quiver.attempt")).toBe(1);
    expect(request?.kind).toBe("client");
    expect(parentId(request)).toBe(attempt?.spanId);
    expect(Object.fromEntries(request?.attributes ?? [])).toMatchObject({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "server.port": server.port,
      "url.template": "/records/{id}",
      "http.response.status_code": 200,
    });
    // The upstream got the request span as its parent, and the caller's tracestate.
    const sent = server.seen[0]?.headers;
    expect(sent?.traceparent).toBe(`00-${callerTrace}-${request?.spanId}-01`);
    expect(sent?.tracestate).toBe("vendor=x");

    // A cache hit: its own execute_tool span, cached, with no attempt.
    const before = spans.length;
    await catalog.call("up_fetch", { id: "a" });
    const hit = spans.slice(before);
    expect(hit.map((s) => s.name)).toEqual(["execute_tool up_fetch"]);
    expect(attr(hit[0], "quiver.cached")).toBe(true);
    expect(hit[0]?.parent._tag).toBe("None");

    // A failed request: error.type is the status on the request span, the kind on the others.
    status = 503;
    const failed = await catalog.call("up_fetch", { id: "b" });
    expect(failed.status).not.toBe("success");
    const failedCall = spans.findLast((s) => s.name === "execute_tool up_fetch");
    const failedRequest = spans.findLast((s) => s.name === "GET /records/{id}");
    expect(attr(failedRequest, "http.response.status_code")).toBe(503);
    expect(attr(failedRequest, "error.type")).toBe("503");
    expect(attr(failedCall, "error.type")).toBe(failed.error?.kind);
    expect(failedCall?.status._tag === "Ended" && failedCall.status.exit._tag).toBe("Failure");

    // No span says the key, anywhere.
    const text = JSON.stringify(
      spans.map((s) => ({ name: s.name, a: Object.fromEntries(s.attributes), st: s.status })),
      (_k, v: unknown) =>
        typeof v === "bigint" ? String(v) : v instanceof Error ? `${v.message} ${v.stack}` : v,
    );
    expect(text).not.toContain(CANARY);
    expect(server.seen.every((s) => s.url.includes(CANARY))).toBe(true);
    await catalog.close();
  });

  it("records the principal only when asked, and ends refused calls' spans with their kind", async () => {
    const { spans, layer } = recordingTracer();
    const catalog = createCatalog({ layer, tracePrincipal: true });
    catalog.register(upstreamPlugin("http://127.0.0.1:9"));
    await catalog.call("up_fetch", { id: 3 }, { session: { id: "s1", principal: "alice" } });
    const span = spans.find((s) => s.name === "execute_tool up_fetch");
    expect(attr(span, "quiver.principal")).toBe("alice");
    expect(attr(span, "gen_ai.conversation.id")).toBe("s1");
    expect(attr(span, "error.type")).toBe("invalid_input");
    await catalog.close();
  });

  it("opens the transport's server span around the call, a child of the caller's trace", async () => {
    const { spans, layer } = recordingTracer();
    const catalog = createCatalog({ layer });
    const probe = definePlugin({
      specificationVersion: "v1",
      id: "p",
      version: "1.0.0",
      tools: [
        defineTool({
          name: "p_fail",
          description: "Always fails upstream.",
          category: "computational_service",
          input: z.object({}),
          output: z.object({}),
          examples: [{ input: {} }],
          annotations: { readOnly: true },
          policy: { retry: false },
          run: async () => {
            throw fail.upstream("bad gateway");
          },
        }),
      ],
    });
    catalog.register(probe);
    await catalog.call(
      "p_fail",
      {},
      {
        trace: { traceparent: "00-11111111111111111111111111111111-2222222222222222-01" },
        transportSpan: { name: "tools/call p_fail", attributes: { "mcp.method.name": "tools/call" } },
      },
    );
    const server = spans.find((s) => s.name === "tools/call p_fail");
    const call = spans.find((s) => s.name === "execute_tool p_fail");
    expect(server?.kind).toBe("server");
    expect(parentId(server)).toBe("2222222222222222");
    expect(parentId(call)).toBe(server?.spanId);
    expect(attr(server, "error.type")).toBe("upstream");
    await catalog.close();
  });

  it("puts the spans an Effect tool makes itself under its attempt, in the call's trace", async () => {
    const { spans, layer } = recordingTracer();
    const catalog = createCatalog({ layer });
    catalog.register(
      definePlugin({
        specificationVersion: "v1",
        id: "fx",
        version: "1.0.0",
        tools: [
          defineTool({
            name: "fx_steps",
            description: "Runs two traced steps as an Effect.",
            category: "computational_service",
            input: z.object({}),
            output: z.object({ n: z.number() }),
            examples: [{ input: {} }],
            annotations: { readOnly: true },
            policy: { retry: false },
            run: () =>
              Effect.gen(function* () {
                const a = yield* Effect.succeed(1).pipe(Effect.withSpan("fx.parse"));
                const b = yield* Effect.succeed(2).pipe(Effect.withSpan("fx.rank"));
                return { n: a + b };
              }),
          }),
        ],
      }),
    );
    const r = await catalog.call(
      "fx_steps",
      {},
      {
        trace: { traceparent: "00-33333333333333333333333333333333-4444444444444444-01" },
      },
    );
    expect(r.status).toBe("success");
    const attempt = spans.find((s) => s.name === "quiver.attempt");
    for (const name of ["fx.parse", "fx.rank"]) {
      const own = spans.find((s) => s.name === name);
      expect(own?.traceId).toBe("33333333333333333333333333333333");
      expect(parentId(own)).toBe(attempt?.spanId);
    }
    await catalog.close();
  });
});
