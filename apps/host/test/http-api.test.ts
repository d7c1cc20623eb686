import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ToolResult } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { VERSION as HOST_VERSION } from "../src/index.js";
import { eventually, makeProject, type Project } from "./helpers.js";

type Envelope = ToolResult<any>;

let project: Project;
let open: { host: Host; server: RunningServer };
let locked: { host: Host; server: RunningServer };
const clients: Client[] = [];

const start = async (env: Record<string, string>) => {
  const settings = await resolveSettings({ cwd: project.dir, port: "0" }, env);
  const host = await createHost(settings);
  const server = await startServer(host, { log: () => {} });
  return { host, server };
};

beforeAll(async () => {
  project = makeProject({ fixtures: ["echo", "needs-key"] });
  open = await start({ QUIVER_PRINCIPAL: "local-user", QUIVER_SHUTDOWN_TIMEOUT: "1s" });
  locked = await start({ QUIVER_TOKENS: "tok-alice=alice,tok-bob=bob", QUIVER_SHUTDOWN_TIMEOUT: "1s" });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await open?.server.shutdown("test end");
  await locked?.server.shutdown("test end");
  project?.cleanup();
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("HTTP JSON API", () => {
  it("GET /tools lists every tool, filterable by category", async () => {
    const r = await get(`${open.server.url}/tools`);
    expect(r.status).toBe(200);
    const { tools } = (await r.json()) as { tools: { name: string; available: boolean }[] };
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo_text", "keyed_lookup", "quiver_find_tools"]),
    );
    expect(tools.find((t) => t.name === "keyed_lookup")?.available).toBe(false);
    const d = (await (await get(`${open.server.url}/tools?category=discovery`)).json()) as {
      tools: unknown[];
    };
    expect(d.tools).toHaveLength(1);
  });

  it("GET /tools/:name describes a tool (schema per target); an unknown one is a 404 with a suggestion", async () => {
    const d = (await (await get(`${open.server.url}/tools/echo_text`)).json()) as any;
    expect(d).toMatchObject({
      name: "echo_text",
      plugin: "echo",
      inputSchema: { type: "object" },
      examples: [{ input: { text: "hello" } }],
    });
    const oa = (await (await get(`${open.server.url}/tools/echo_text?target=openai`)).json()) as any;
    expect(oa.inputSchema.additionalProperties).toBe(false);
    const missing = await get(`${open.server.url}/tools/echo_txt`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      error: { code: "unknown_tool", fix: expect.stringContaining('"echo_text"') },
    });
    expect((await get(`${open.server.url}/tools/echo_text?target=x`)).status).toBe(400);
  });

  it("POST /tools/:name/call takes the input as the body, or {input, session}", async () => {
    const a = await post(`${open.server.url}/tools/echo_text/call`, { text: "plain" });
    expect(a.status).toBe(200);
    expect(a.headers.get("x-quiver-status")).toBe("success");
    expect(((await a.json()) as Envelope).data).toEqual({ text: "plain" });
    const b = await post(`${open.server.url}/tools/echo_whoami/call`, {
      input: {},
      session: { id: "conv-7" },
    });
    expect(((await b.json()) as Envelope).data).toEqual({ principal: "local-user", session: "conv-7" });
  });

  it("escalates within a named session only: one-shot calls of one principal never share a failure count", async () => {
    const url = `${open.server.url}/tools/echo_fail/call`;
    const escalateOf = async (r: Promise<Response>) =>
      ((await (await r).json()) as { escalate?: boolean }).escalate;
    expect(await escalateOf(post(url, {}))).toBeUndefined();
    expect(await escalateOf(post(url, {}))).toBeUndefined();
    expect(await escalateOf(post(url, {}, { "x-quiver-session": "conv-esc" }))).toBeUndefined();
    expect(await escalateOf(post(url, { input: {}, session: { id: "conv-esc" } }))).toBe(true);
    const who = (await (await post(`${open.server.url}/tools/echo_whoami/call`, {})).json()) as Envelope;
    expect(who.data.session).toMatch(/^one-shot-[0-9a-f-]{36}$/);
  });

  it("takes a per-call timeout as timeoutMs in {input, timeoutMs} or the X-Quiver-Timeout-Ms header", async () => {
    const url = `${open.server.url}/tools/echo_slow_wait/call`;
    const wrapped = (await (await post(url, { input: { ms: 120_000 }, timeoutMs: 100 })).json()) as Envelope;
    expect(wrapped.status).toBe("timeout");
    expect(wrapped.message).toBe("echo_slow_wait did not finish within 100 ms.");
    const headed = (await (
      await post(url, { ms: 120_000 }, { "x-quiver-timeout-ms": "150" })
    ).json()) as Envelope;
    expect(headed.message).toBe("echo_slow_wait did not finish within 150 ms.");
    const bad = (await (await post(url, { input: { ms: 1 }, timeoutMs: "soon" })).json()) as Envelope;
    expect(bad.error?.kind).toBe("invalid_input");
    expect(bad.message).toMatch(/timeoutMs must be a positive number/);
    const ok = (await (await post(url, { input: { ms: 1 }, timeoutMs: 60_000 })).json()) as Envelope;
    expect(ok.status).toBe("success");
  });

  it("answers error envelopes with 200 and the status header, bad bodies and methods with JSON errors", async () => {
    const invalid = await post(`${open.server.url}/tools/echo_text/call`, { text: 1 });
    expect(invalid.status).toBe(200);
    expect(invalid.headers.get("x-quiver-status")).toBe("error");
    expect(((await invalid.json()) as Envelope).error?.kind).toBe("invalid_input");
    const unconfigured = (await (
      await post(`${open.server.url}/tools/keyed_lookup/call`, { q: "x" })
    ).json()) as Envelope;
    expect(unconfigured.status).toBe("unavailable");
    expect(unconfigured.message).toContain("KEYED_API_KEY");
    const notJson = await post(`${open.server.url}/tools/echo_text/call`, "{nope");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: "invalid_json" } });
    const method = await get(`${open.server.url}/tools/echo_text/call`);
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("POST");
    const nowhere = await get(`${open.server.url}/nowhere`);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toMatchObject({ error: { code: "not_found" } });
    const unknown = await post(`${open.server.url}/tools/nope/call`, {});
    expect(unknown.status).toBe(404);
  });

  it("GET /health reports the plugins; GET /find ranks tools", async () => {
    const h = (await (await get(`${open.server.url}/health`)).json()) as any;
    expect(h).toMatchObject({ status: "ok", version: HOST_VERSION, inflight: 0, problems: [] });
    expect(h.plugins.map((p: { id: string }) => p.id)).toEqual(["echo", "needs-key", "quiver"]);
    const f = (await (
      await get(`${open.server.url}/find?need=${encodeURIComponent("echo some text")}`)
    ).json()) as any;
    expect(f.tools[0].name).toBe("echo_text");
  });

  it("GET /metrics serves the runtime's metrics in Prometheus text format", async () => {
    await post(`${open.server.url}/tools/echo_text/call`, { text: "metric" });
    const r = await get(`${open.server.url}/metrics`);
    expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await r.text();
    expect(text).toMatch(/quiver_tool_calls_total\{tool="echo_text",plugin="echo",status="success"\} \d+/);
    expect(text).toMatch(
      /quiver_tool_call_duration_ms_bucket\{tool="echo_text",plugin="echo",le="\+Inf"\} \d+/,
    );
    expect(text).toMatch(/quiver_host_plugins\{status="ready"\} 2/);
  });

  it("maps bearer tokens to principals, refusing missing or unknown tokens with 401", async () => {
    const none = await post(`${locked.server.url}/tools/echo_whoami/call`, {});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.json()).toMatchObject({ error: { code: "unauthorized" } });
    expect(
      (await post(`${locked.server.url}/tools/echo_whoami/call`, {}, { authorization: "Bearer nope" }))
        .status,
    ).toBe(401);
    const alice = await post(
      `${locked.server.url}/tools/echo_whoami/call`,
      {},
      { authorization: "Bearer tok-alice" },
    );
    expect(((await alice.json()) as Envelope).data.principal).toBe("alice");
    expect((await get(`${locked.server.url}/tools`)).status).toBe(401);
    expect((await get(`${locked.server.url}/health`)).status).toBe(200);
  });

  it("refuses foreign Origin and Host headers (DNS rebinding)", async () => {
    const evil = await get(`${open.server.url}/tools`, { origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ error: { code: "forbidden_origin" } });
    expect((await get(`${open.server.url}/tools`, { origin: "http://localhost:3000" })).status).toBe(200);
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve) => {
      const u = new URL(`${open.server.url}/tools`);
      request(
        { host: u.hostname, port: u.port, path: u.pathname, headers: { host: "evil.example:80" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      ).end();
    });
    expect(status).toBe(403);
  });

  it("cancels a call when its client disconnects", async () => {
    const controller = new AbortController();
    const req = fetch(`${open.server.url}/tools/echo_slow_wait/call`, {
      method: "POST",
      body: JSON.stringify({ ms: 20_000 }),
      signal: controller.signal,
    }).catch(() => undefined);
    await eventually(() => open.host.tracker.inflight().length === 1);
    controller.abort();
    await req;
    await eventually(() => open.host.tracker.inflight().length === 0, 3_000);
  });
});

describe("MCP Streamable HTTP at /mcp", () => {
  const connect = async (
    server: RunningServer,
    headers: Record<string, string> = {},
    onChanged?: () => void,
  ) => {
    const client = new Client(
      { name: "host-test", version: "1.0.0" },
      onChanged ? { listChanged: { tools: { onChanged: () => onChanged(), autoRefresh: false } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  };

  it("lists the discovered tools with schemas and annotations, and calls them", async () => {
    const client = await connect(open.server);
    expect(client.getServerVersion()?.name).toBe("quiver");
    const { tools } = await client.listTools();
    const echo = tools.find((t) => t.name === "echo_text")!;
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { text: { type: "string" } } });
    expect(echo.outputSchema).toBeDefined();
    expect(echo.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.map((t) => t.name)).toContain("quiver_find_tools");
    const ok = await client.callTool({ name: "echo_text", arguments: { text: "over mcp" } });
    expect(ok.isError).toBeFalsy();
    expect((ok.structuredContent as Envelope).data).toEqual({ text: "over mcp" });
    const bad = await client.callTool({ name: "echo_fail", arguments: {} });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as Envelope).status).toBe("error");
    const found = await client.callTool({ name: "quiver_find_tools", arguments: { need: "echo text" } });
    expect((found.structuredContent as Envelope).data.tools[0].name).toBe("echo_text");
  });

  it("streams progress notifications of a long call", async () => {
    const client = await connect(open.server);
    const seen: number[] = [];
    const r = await client.callTool(
      { name: "echo_slow_wait", arguments: { ms: 80 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(r.isError).toBeFalsy();
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it("uses the same tokens as the JSON API", async () => {
    await expect(connect(locked.server)).rejects.toThrow();
    const client = await connect(locked.server, { authorization: "Bearer tok-bob" });
    const r = await client.callTool({ name: "echo_whoami", arguments: {} });
    expect((r.structuredContent as Envelope).data.principal).toBe("bob");
  });

  it("tells clients when the tool list changes", async () => {
    let changed = 0;
    const client = await connect(open.server, {}, () => changed++);
    await client.listTools();
    open.host.catalog.unregister("needs-key");
    await eventually(() => changed > 0);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("keyed_lookup");
  });
});
