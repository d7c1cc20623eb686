import { request as httpRequest, type ServerResponse } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Catalog, createCatalog, type ToolResult } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { extraPlugin, testPlugin } from "./fixtures/test-plugin.js";
import { eventually, listen, startHangingUpstream } from "./helpers.js";

type Envelope = ToolResult;

let upstream: Awaited<ReturnType<typeof startHangingUpstream>>;
let catalog: Catalog;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
const clients: Client[] = [];
/** Every response the shared server gave, to see when a client's notification stream is open. */
const responses: ServerResponse[] = [];

/**
 * Resolves once a notification stream is open: a response begun after the first `since` whose headers
 * are sent and which stays open (the SSE stream; the handshake's responses have ended by then).
 */
const notificationStreamOpen = (since: number) =>
  eventually(() => responses.slice(since).some((r) => r.headersSent && !r.writableEnded));

const connect = async (headers: Record<string, string> = {}, onToolsChanged?: () => void) => {
  const client = new Client(
    { name: "http-test", version: "1.0.0" },
    onToolsChanged
      ? { listChanged: { tools: { onChanged: () => onToolsChanged(), autoRefresh: false } } }
      : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
};

beforeAll(async () => {
  upstream = await startHangingUpstream();
  catalog = createCatalog({ env: { TEST_UPSTREAM_URL: upstream.url } });
  catalog.register(testPlugin);
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-abc": "alice", "tok-def": "bob" } });
  http = await listen((req, res) => {
    responses.push(res);
    void handler(req, res);
  });
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  catalog.unregister("extra");
});

afterAll(async () => {
  await handler.close();
  await http.close();
  await upstream.close();
  await catalog.close();
});

const auth = { authorization: "Bearer tok-abc" };

describe("MCP over Streamable HTTP with the SDK client", () => {
  it("negotiates protocol 2025-11-25 and opens a stateful session", async () => {
    const client = await connect(auth);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(handler.sessionCount()).toBeGreaterThanOrEqual(1);
  });

  it("lists tools with input and output schemas and annotations", async () => {
    const client = await connect(auth);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "test_echo",
      "test_fail",
      "test_progress",
      "test_wait_upstream",
      "test_whoami",
    ]);
    const echo = tools.find((t) => t.name === "test_echo")!;
    expect(echo.inputSchema).toEqual(catalog.describe("test_echo", "mcp")!.inputSchema);
    expect(echo.outputSchema?.required).toEqual(["status", "message", "metadata"]);
    expect(echo.annotations).toEqual({
      title: "Echo",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    const wait = tools.find((t) => t.name === "test_wait_upstream")!;
    expect(wait.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it("calls a tool: the envelope as structuredContent plus a text summary", async () => {
    const client = await connect(auth);
    const result = await client.callTool({ name: "test_echo", arguments: { text: "hi", times: 2 } });
    expect(result.isError).toBe(false);
    const envelope = result.structuredContent as Envelope;
    expect(envelope).toMatchObject({
      status: "success",
      data: { text: "hi hi" },
      metadata: { tool: "test_echo" },
    });
    expect(result.content[0]).toEqual({ type: "text", text: "test_echo succeeded." });
    expect(result.content[1]).toEqual({ type: "text", text: '{"text":"hi hi"}' });
  });

  it("answers a failing tool with isError and the error envelope", async () => {
    const client = await connect(auth);
    const result = await client.callTool({ name: "test_fail", arguments: { reason: "no" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: "error",
      error: { kind: "out_of_domain", retryable: false },
      suggestion: "Ask about something else.",
    });
    expect((result.content[0] as { text: string }).text).toContain("[error] Refused: no");
  });

  it("answers invalid input with isError (invalid_input), so the model can correct itself", async () => {
    const client = await connect(auth);
    const result = await client.callTool({ name: "test_echo", arguments: { text: "" } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Envelope).error?.kind).toBe("invalid_input");
  });

  it("rejects an unknown tool with a protocol error", async () => {
    const client = await connect(auth);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
      /Unknown tool: no_such_tool/,
    );
  });

  it("streams progress notifications to a client that sent a progressToken", async () => {
    const client = await connect(auth);
    const seen: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = [];
    const result = await client.callTool(
      { name: "test_progress", arguments: { steps: 4, delayMs: 10 } },
      { onprogress: (p) => seen.push(p) },
    );
    expect(result.isError).toBe(false);
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(seen[3]).toMatchObject({ total: 4, message: "step 4 of 4" });
  });

  it("cancellation aborts the run and its upstream request (the upstream sees the socket closed)", async () => {
    const client = await connect(auth);
    const controller = new AbortController();
    const call = client.callTool(
      { name: "test_wait_upstream", arguments: { tag: "http-cancel" } },
      { signal: controller.signal },
    );
    await upstream.until(() => upstream.seen.some((s) => s.tag === "http-cancel"));
    controller.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await upstream.until(() => upstream.seen.find((s) => s.tag === "http-cancel")?.closedByClient === true);
    expect(upstream.seen.find((s) => s.tag === "http-cancel")?.closedByClient).toBe(true);
  });

  it("sends tools/list_changed when the catalog changes", async () => {
    let changed = 0;
    const since = responses.length;
    const client = await connect(auth, () => changed++);
    // The standalone GET stream carries server-initiated notifications: wait until it is open.
    await notificationStreamOpen(since);
    catalog.register(extraPlugin);
    await eventually(() => changed > 0);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("extra_ping");
  });

  it("maps the bearer token to the principal the tool sees", async () => {
    const alice = await connect(auth);
    const bob = await connect({ authorization: "Bearer tok-def" });
    const a = (await alice.callTool({ name: "test_whoami", arguments: {} })).structuredContent as Envelope;
    const b = (await bob.callTool({ name: "test_whoami", arguments: {} })).structuredContent as Envelope;
    expect(a.data).toMatchObject({ principal: "alice" });
    expect(b.data).toMatchObject({ principal: "bob" });
    expect((a.data as { sessionId: string }).sessionId).not.toBe((b.data as { sessionId: string }).sessionId);
  });

  it("refuses an unknown or missing token with 401 and a WWW-Authenticate challenge", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    for (const extra of [{}, { authorization: "Bearer tok-wrong" }]) {
      const res = await fetch(`${http.url}/mcp`, {
        method: "POST",
        headers: { ...headers, ...extra },
        body: JSON.stringify(init),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      await res.body?.cancel();
    }
    await expect(connect({ authorization: "Bearer tok-wrong" })).rejects.toThrow();
  });

  it("binds a session to its principal: another token cannot use it", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const opened = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { ...headers, ...auth },
      body: JSON.stringify(init),
    });
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.body?.cancel();
    expect(sessionId).toBeTruthy();
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const stolen = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: {
        ...headers,
        authorization: "Bearer tok-def",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(list),
    });
    expect(stolen.status).toBe(404);
    await stolen.body?.cancel();
  });

  it("rejects a foreign Origin with 403 (DNS-rebinding protection) and accepts localhost origins", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...auth,
    };
    const evil = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { ...headers, origin: "http://evil.example" },
      body: JSON.stringify(init),
    });
    expect(evil.status).toBe(403);
    await evil.body?.cancel();
    const local = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { ...headers, origin: "http://localhost:3000" },
      body: JSON.stringify(init),
    });
    expect(local.status).toBe(200);
    await local.body?.cancel();
  });

  it("rejects a Host header outside the allowed names (a rebound DNS name)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${http.url}/mcp`,
        { method: "GET", headers: { host: "attacker.example:80", ...auth } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("answers other paths with 404, or hands them to next()", async () => {
    const res = await fetch(`${http.url}/elsewhere`);
    expect(res.status).toBe(404);
    await res.body?.cancel();
    const composed = await listen((req, res) => void handler(req, res, () => res.writeHead(200).end("api")));
    try {
      expect(await (await fetch(`${composed.url}/tools`)).text()).toBe("api");
    } finally {
      await composed.close();
    }
  });
});

describe("MCP over Streamable HTTP, 2026-07-28 clients (per-request era)", () => {
  it("lists and calls tools, with progress, for a client pinned to 2026-07-28", async () => {
    const client = new Client(
      { name: "modern", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers: auth } }),
    );
    expect(client.getProtocolEra()).toBe("modern");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("test_echo");
    const seen: number[] = [];
    const result = await client.callTool(
      { name: "test_progress", arguments: { steps: 3, delayMs: 5 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(result.structuredContent).toMatchObject({ status: "success", data: { counted: 3 } });
    expect(seen).toEqual([1, 2, 3]);
    const who = await client.callTool({ name: "test_whoami", arguments: {} });
    expect(who.structuredContent).toMatchObject({ data: { principal: "alice" } });
  });

  it("delivers tools/list_changed on the subscriptions/listen stream", async () => {
    let changed = 0;
    const client = new Client(
      { name: "modern", version: "1.0.0" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        listChanged: { tools: { onChanged: () => changed++, autoRefresh: false } },
      },
    );
    clients.push(client);
    const since = responses.length;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers: auth } }),
    );
    await notificationStreamOpen(since);
    catalog.register(extraPlugin);
    await eventually(() => changed > 0);
    expect((await client.listTools(undefined, { cacheMode: "refresh" })).tools.map((t) => t.name)).toContain(
      "extra_ping",
    );
  });

  it("cancellation aborts the run and its upstream request", async () => {
    const client = new Client(
      { name: "modern", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers: auth } }),
    );
    const controller = new AbortController();
    const call = client.callTool(
      { name: "test_wait_upstream", arguments: { tag: "modern-cancel" } },
      { signal: controller.signal },
    );
    await upstream.until(() => upstream.seen.some((s) => s.tag === "modern-cancel"));
    controller.abort();
    await expect(call).rejects.toThrow();
    await upstream.until(() => upstream.seen.find((s) => s.tag === "modern-cancel")?.closedByClient === true);
  });
});

describe("Streamable HTTP session lifecycle", () => {
  const initialize = (url: string) =>
    fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });

  it("closes idle sessions; their id then answers 404", async () => {
    const h = createMcpHttpHandler(catalog, { sessionIdleTimeout: "100ms" });
    const s = await listen((req, res) => void h(req, res));
    try {
      const opened = await initialize(s.url);
      const id = opened.headers.get("mcp-session-id")!;
      await opened.body?.cancel();
      expect(h.sessionCount()).toBe(1);
      await eventually(() => h.sessionCount() === 0, 5_000, 100);
      const res = await fetch(`${s.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": id,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(res.status).toBe(404);
      await res.body?.cancel();
    } finally {
      await h.close();
      await s.close();
    }
  });

  const openAs = async (url: string, token?: string) => {
    const res = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    await res.body?.cancel();
    expect(res.status).toBe(200);
    return res.headers.get("mcp-session-id")!;
  };
  /** The headers of a request in session `id` (as `token`'s principal when given). */
  const sessionHeaders = (id: string, token?: string) => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": id,
    "mcp-protocol-version": "2025-11-25",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  /** The HTTP status of a ping in session `id`: 200 while it is open, 404 once closed. */
  const pingStatus = async (url: string, id: string, token?: string) => {
    const res = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: sessionHeaders(id, token),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    await res.body?.cancel();
    return res.status;
  };
  /** Starts a raw tools/call of test_wait_upstream in session `id`; `gone.abort()` drops the connection. */
  const waitingCall = (url: string, id: string, tag: string, token?: string) => {
    const gone = new AbortController();
    const call = fetch(`${url}/mcp`, {
      method: "POST",
      headers: sessionHeaders(id, token),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "test_wait_upstream", arguments: { tag } },
      }),
      signal: gone.signal,
    }).catch((e: unknown) => e);
    return { gone, call };
  };

  it("one principal opening many sessions evicts its own oldest, never another principal's", async () => {
    const h = createMcpHttpHandler(catalog, {
      tokens: { "tok-a": "alice", "tok-b": "bob" },
      maxSessionsPerPrincipal: 3,
    });
    const s = await listen((req, res) => void h(req, res));
    try {
      const bob = await openAs(s.url, "tok-b");
      const alice: string[] = [];
      for (let i = 0; i < 20; i++) alice.push(await openAs(s.url, "tok-a"));
      expect(h.sessionCount()).toBe(4);
      expect(await pingStatus(s.url, bob, "tok-b")).toBe(200);
      // Bob can still open sessions; alice keeps her three newest.
      expect(await pingStatus(s.url, await openAs(s.url, "tok-b"), "tok-b")).toBe(200);
      for (const id of alice.slice(0, 17)) expect(await pingStatus(s.url, id, "tok-a")).toBe(404);
      for (const id of alice.slice(17)) expect(await pingStatus(s.url, id, "tok-a")).toBe(200);
    } finally {
      await h.close();
      await s.close();
    }
  });

  it("without tokens, one local client opening many sessions never evicts another's", async () => {
    // Every local process shares 127.0.0.1 (and every client behind a proxy the proxy's address):
    // the per-principal limit must not count them as one caller and close each other's sessions.
    const h = createMcpHttpHandler(catalog, { maxSessionsPerPrincipal: 2 });
    const s = await listen((req, res) => void h(req, res));
    try {
      const other = await openAs(s.url);
      for (let i = 0; i < 10; i++) await openAs(s.url);
      expect(h.sessionCount()).toBe(11);
      expect(await pingStatus(s.url, other)).toBe(200);
    } finally {
      await h.close();
      await s.close();
    }
  });

  it("without tokens, a full server refuses a new session (503, Retry-After) and closes none", async () => {
    const h = createMcpHttpHandler(catalog, { maxSessions: 2, sessionIdleTimeout: "10 minutes" });
    const s = await listen((req, res) => void h(req, res));
    try {
      const a = await openAs(s.url);
      const b = await openAs(s.url);
      const refused = await initialize(s.url);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(500);
      expect(await refused.json()).toMatchObject({
        error: { message: expect.stringMatching(/Too many open sessions/) },
      });
      expect(await pingStatus(s.url, a)).toBe(200);
      expect(await pingStatus(s.url, b)).toBe(200);
      // A session closed by its own client makes room.
      await fetch(`${s.url}/mcp`, {
        method: "DELETE",
        headers: { "mcp-session-id": a, "mcp-protocol-version": "2025-11-25" },
      }).then((r) => r.body?.cancel());
      expect(await pingStatus(s.url, await openAs(s.url))).toBe(200);
    } finally {
      await h.close();
      await s.close();
    }
  });

  it("with tokens, evicts the least recently used session first, and the global limit evicts instead of refusing", async () => {
    const h = createMcpHttpHandler(catalog, {
      tokens: { "tok-a": "alice" },
      maxSessionsPerPrincipal: 2,
      maxSessions: 2,
    });
    const s = await listen((req, res) => void h(req, res));
    try {
      const a = await openAs(s.url, "tok-a");
      const b = await openAs(s.url, "tok-a");
      // A is used again (in the same millisecond or not), so B is now the one idle longest.
      expect(await pingStatus(s.url, a, "tok-a")).toBe(200);
      const c = await openAs(s.url, "tok-a");
      expect(await pingStatus(s.url, b, "tok-a")).toBe(404);
      expect(await pingStatus(s.url, a, "tok-a")).toBe(200);
      expect(await pingStatus(s.url, c, "tok-a")).toBe(200);
      expect(h.sessionCount()).toBe(2);
    } finally {
      await h.close();
      await s.close();
    }
  });

  it("with tokens, evicts an idle session before an older one whose call is still running", async () => {
    const h = createMcpHttpHandler(catalog, { tokens: { "tok-a": "alice" }, maxSessionsPerPrincipal: 2 });
    const s = await listen((req, res) => void h(req, res));
    try {
      const busy = await openAs(s.url, "tok-a");
      const { gone, call } = waitingCall(s.url, busy, "busy-session", "tok-a");
      await upstream.until(() => upstream.seen.some((x) => x.tag === "busy-session"));
      const idle = await openAs(s.url, "tok-a");
      await openAs(s.url, "tok-a");
      expect(await pingStatus(s.url, idle, "tok-a")).toBe(404);
      expect(await pingStatus(s.url, busy, "tok-a")).toBe(200);
      gone.abort();
      await call;
    } finally {
      await h.close();
      await s.close();
    }
  });

  it("a client that disconnects mid-call without notifications/cancelled cancels the call and its upstream request", async () => {
    const h = createMcpHttpHandler(catalog);
    const s = await listen((req, res) => void h(req, res));
    try {
      const id = await openAs(s.url);
      const initialized = await fetch(`${s.url}/mcp`, {
        method: "POST",
        headers: sessionHeaders(id),
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      });
      await initialized.body?.cancel();
      const { gone, call } = waitingCall(s.url, id, "disconnect");
      await upstream.until(() => upstream.seen.some((x) => x.tag === "disconnect"));
      gone.abort();
      await call;
      // The upstream request is aborted long before any timeout of the tool (minutes).
      await upstream.until(() => upstream.seen.find((x) => x.tag === "disconnect")?.closedByClient === true);
      // The session itself stays open for the client's next request.
      expect(await pingStatus(s.url, id)).toBe(200);
    } finally {
      await h.close();
      await s.close();
    }
  });

  it("close() cancels in-flight calls and their upstream requests", async () => {
    const h = createMcpHttpHandler(catalog);
    const s = await listen((req, res) => void h(req, res));
    const client = new Client({ name: "shutdown", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    const call = client
      .callTool({ name: "test_wait_upstream", arguments: { tag: "shutdown" } })
      .catch((e: unknown) => e);
    await upstream.until(() => upstream.seen.some((x) => x.tag === "shutdown"));
    await h.close();
    await upstream.until(() => upstream.seen.find((x) => x.tag === "shutdown")?.closedByClient === true);
    expect(h.sessionCount()).toBe(0);
    await client.close().catch(() => {});
    await s.close();
    await call;
  });
});

describe("request bodies (read once from the node stream)", () => {
  let small: McpHttpHandler;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    small = createMcpHttpHandler(catalog, { maxRequestBodySize: 1_000 });
    server = await listen((req, res) => void small(req, res));
  });
  afterAll(async () => {
    await small.close();
    await server.close();
  });

  const post = async (body: string | ReadableStream<Uint8Array>, url = `${server.url}/mcp`) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
      ...(typeof body === "string" ? {} : { duplex: "half" }),
    } as RequestInit);
    const text = await res.text();
    const json = res.headers.get("content-type")?.includes("application/json");
    return { status: res.status, body: (json ? JSON.parse(text) : text) as { error?: { code: number } } };
  };
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });

  it("answers 413 to a body over the limit, declared or streamed, and keeps serving", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(5_000) } });
    expect(await post(big)).toMatchObject({ status: 413, body: { error: { code: -32600 } } });
    const chunks = [big.slice(0, 800), big.slice(800)].map((s) => new TextEncoder().encode(s));
    const streamed = new ReadableStream<Uint8Array>({
      pull: (c) => {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    expect((await post(streamed)).status).toBe(413);
    expect((await post(initialize)).status).toBe(200);
  });

  it("answers 400 with a JSON-RPC parse error to a body that is not JSON", async () => {
    expect(await post("{ not json")).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
  });

  it("refuses a body that is not valid UTF-8 (400, parse error), as the HTTP API does", async () => {
    // An initialize whose client name holds a lone 0xFF byte: read with replacement characters it
    // would open a session; it must be refused instead. Sent as raw bytes over a real socket.
    const [head, tail] = initialize.split('"raw"');
    const invalid = Buffer.concat([Buffer.from(`${head}"raw`), Buffer.from([0xff]), Buffer.from(`"${tail}`)]);
    const sendBytes = (bytes: Buffer) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/mcp`,
          {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          },
          (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (c: string) => (body += c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on("error", reject);
        req.end(bytes);
      });
    const open = small.sessionCount();
    const refused = await sendBytes(invalid);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: -32700, message: expect.stringMatching(/UTF-8/) },
    });
    expect(small.sessionCount()).toBe(open);
    const web = await small.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          host: "localhost",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: invalid,
      }),
    );
    expect(web.status).toBe(400);
    // A leading byte-order mark is skipped, as the HTTP API skips it.
    const bom = await sendBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(initialize)]));
    expect(bom.status).toBe(200);
  });

  it("reads the body of the web-standard face the same way", async () => {
    const req = (body: string) =>
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          host: "localhost",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body,
      });
    expect((await small.fetch(req("x".repeat(2_000)))).status).toBe(413);
    expect((await small.fetch(req("{ not json"))).status).toBe(400);
    const ok = await small.fetch(req(initialize));
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("a malformed Host header gets 400, not a crash", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/mcp`, { method: "GET", headers: { host: "a b" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(400);
  });
});
