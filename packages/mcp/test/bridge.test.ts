import { type Catalog, createCatalog, type ToolProgress } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMcpBridgePlugin,
  createMcpHttpHandler,
  loadMcpBridgePlugin,
  type McpHttpHandler,
} from "../src/index.js";
import { testPlugin } from "./fixtures/test-plugin.js";
import {
  childPids as childPidsOf,
  EVERYTHING,
  listen,
  QUIVER_STDIO,
  startHangingUpstream,
} from "./helpers.js";

const childPids = () => childPidsOf("server-everything");

const newCatalog = useCatalog({ env: {} });

describe("MCP bridge against @modelcontextprotocol/server-everything (stdio)", () => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = createCatalog({ env: {} });
    catalog.register(
      await loadMcpBridgePlugin({ id: "everything", command: process.execPath, args: [EVERYTHING, "stdio"] }),
    );
  });
  afterAll(async () => {
    await catalog.close();
  });

  it("lists the remote tools as Quiver tools with converted schemas and annotations", () => {
    const names = catalog.list().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]));
    const echo = catalog.describe("echo", "mcp")!;
    expect(echo.plugin).toBe("everything");
    expect(echo.description).toBe("Echoes back the input string");
    expect(echo.inputSchema).toMatchObject({
      type: "object",
      properties: { message: { type: "string", description: "Message to echo" } },
      required: ["message"],
    });
    expect(echo.annotations).toMatchObject({
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: true,
    });
    // The converted schema also exports for OpenAI strict mode.
    expect(catalog.describe("get-sum", "openai")?.inputSchema).toMatchObject({
      required: ["a", "b"],
      additionalProperties: false,
    });
  });

  it("calls echo through the runtime and returns the envelope", async () => {
    const r = await catalog.call("echo", { message: "hello bridge" });
    expect(r.status).toBe("success");
    expect(r.data).toEqual({ text: "Echo: hello bridge", content: [] });
    expect(r.metadata).toMatchObject({ tool: "echo", plugin: "everything", attempts: 1 });
  });

  it("calls get-sum (add) with numbers", async () => {
    const r = await catalog.call("get-sum", { a: 2, b: 40 });
    expect(r.status).toBe("success");
    expect((r.data as { text: string }).text).toBe("The sum of 2 and 40 is 42.");
  });

  it("validates input before the remote sees it (zod from the remote JSON Schema)", async () => {
    const r = await catalog.call("get-sum", { a: "two", b: 1 });
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/\ba\b/);
  });

  it("returns structured content for a tool with an output schema", async () => {
    const r = await catalog.call("get-structured-content", { location: "Chicago" });
    expect(r.status).toBe("success");
    expect(r.data).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
  });

  it("forwards progress of the long-running operation", async () => {
    const seen: ToolProgress[] = [];
    const r = await catalog.call(
      "trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { onProgress: (p) => seen.push(p) },
    );
    expect(r.status).toBe("success");
    // Every step, the last one (sent right before the result) included.
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen[0]?.total).toBe(3);
  });

  it("applies the runtime's timeout policy to a long remote call", async () => {
    const c = newCatalog();
    c.register(
      await loadMcpBridgePlugin({
        id: "everything-slow",
        command: process.execPath,
        args: [EVERYTHING, "stdio"],
        include: ["trigger-long-running-operation"],
        policy: { timeout: "300ms", retry: false },
      }),
    );
    const started = performance.now();
    const r = await c.call("trigger-long-running-operation", { duration: 5, steps: 5 });
    expect(r.status).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe("MCP bridge errors", () => {
  it("turns a remote isError result into an upstream ToolFailure", async () => {
    const c = newCatalog();
    c.register(
      await loadMcpBridgePlugin({
        id: "quiver-child",
        ...QUIVER_STDIO,
        toolPrefix: "remote_",
      }),
    );
    expect(c.has("remote_test_fail")).toBe(true);
    const r = await c.call("remote_test_fail", { reason: "remote says no" });
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "upstream", retryable: false });
    expect(r.message).toContain("Refused: remote says no");
  });

  it("answers unavailable when the connection is lost, and reconnects on the next call", async () => {
    const c = newCatalog();
    const plugin = await loadMcpBridgePlugin({
      id: "crashy",
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      include: ["echo", "trigger-long-running-operation"],
      policy: { retry: false },
    });
    c.register(plugin);
    expect((await c.call("echo", { message: "before" })).status).toBe("success");
    // Kill the remote server in the middle of a call.
    let started!: () => void;
    const firstStep = new Promise<void>((resolve) => {
      started = resolve;
    });
    // The first progress notification says the remote is inside the call.
    const running = c.call(
      "trigger-long-running-operation",
      { duration: 10, steps: 10 },
      { onProgress: () => started() },
    );
    await firstStep;
    const pids = await childPids();
    for (const pid of pids) process.kill(pid, "SIGKILL");
    const lost = await running;
    expect(lost.status).toBe("unavailable");
    expect(lost.error?.kind).toBe("unavailable");
    expect(lost.message).toContain('MCP server "crashy"');
    // The next call opens a fresh connection.
    expect((await c.call("echo", { message: "after" })).data).toMatchObject({ text: "Echo: after" });
  });

  it("rejects loadMcpBridgePlugin with a clear message when the command cannot start", async () => {
    await expect(
      loadMcpBridgePlugin({
        id: "broken",
        command: process.execPath,
        args: ["-e", "console.error('boom: missing key'); process.exit(3)"],
      }),
    ).rejects.toThrow(/MCP server "broken" \(stdio: .*\) could not be reached.*boom: missing key/s);
  });

  it("a plugin built from a saved tool list answers unavailable when the server is down", async () => {
    const c = newCatalog();
    c.register(
      createMcpBridgePlugin({
        id: "down",
        url: "http://127.0.0.1:9/mcp",
        headers: { authorization: "Bearer secret-token-123" },
        tools: [
          {
            name: "echo",
            description: "Echo",
            inputSchema: { type: "object", properties: { message: { type: "string" } } },
          },
        ],
      }),
    );
    const r = await c.call("echo", { message: "x" });
    expect(r.status).toBe("unavailable");
    expect(JSON.stringify(r)).not.toContain("secret-token-123");
    const health = await c.health("down");
    expect(health.ok).toBe(false);
  });

  it("rejects options with both or neither of command and url", () => {
    expect(() => createMcpBridgePlugin({ id: "x", tools: [] })).toThrow(/exactly one of/);
    expect(() => createMcpBridgePlugin({ id: "x", command: "a", url: "http://b", tools: [] })).toThrow(
      /exactly one of/,
    );
  });
});

describe("MCP bridge over Streamable HTTP (to a Quiver MCP endpoint)", () => {
  let upstream: Awaited<ReturnType<typeof startHangingUpstream>>;
  let served: Catalog;
  let handler: McpHttpHandler;
  let http: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    upstream = await startHangingUpstream();
    served = createCatalog({ env: { TEST_UPSTREAM_URL: upstream.url } });
    served.register(testPlugin);
    handler = createMcpHttpHandler(served, { tokens: { "tok-bridge": "bridge-user" } });
    // Through a variable, so a test can swap in a fresh handler (a restarted server).
    http = await listen((req, res) => void handler(req, res));
  });
  afterAll(async () => {
    await handler.close();
    await http.close();
    await served.close();
    await upstream.close();
  });

  it("bridges the remote tools with a bearer header, and the remote sees its principal", async () => {
    const c = newCatalog();
    c.register(
      await loadMcpBridgePlugin({
        id: "remote",
        url: `${http.url}/mcp`,
        headers: { authorization: "Bearer tok-bridge" },
        toolPrefix: "r_",
      }),
    );
    expect(c.list().map((t) => t.name)).toContain("r_test_echo");
    const r = await c.call("r_test_whoami", {});
    expect(r.status).toBe("success");
    // A remote Quiver tool answers its envelope as structured content (its output schema).
    expect(r.data).toMatchObject({ status: "success", data: { principal: "bridge-user" } });
    expect((await c.health("remote")).ok).toBe(true);
  });

  it("cancelling a bridged call cancels the remote call and its upstream request", async () => {
    const c = newCatalog();
    c.register(
      await loadMcpBridgePlugin({
        id: "remote",
        url: `${http.url}/mcp`,
        headers: { authorization: "Bearer tok-bridge" },
      }),
    );
    const controller = new AbortController();
    const call = c.call("test_wait_upstream", { tag: "bridge-cancel" }, { signal: controller.signal });
    await upstream.until(() => upstream.seen.some((s) => s.tag === "bridge-cancel"));
    controller.abort();
    const r = await call;
    expect(r.status).toBe("unavailable");
    await upstream.until(() => upstream.seen.find((s) => s.tag === "bridge-cancel")?.closedByClient === true);
  });

  it("recovers when the remote server restarts and forgets the session (unavailable, then a retry reconnects)", async () => {
    const c = newCatalog();
    c.register(
      await loadMcpBridgePlugin({
        id: "remote",
        url: `${http.url}/mcp`,
        headers: { authorization: "Bearer tok-bridge" },
      }),
    );
    expect((await c.call("test_echo", { text: "one" })).status).toBe("success");
    const old = handler;
    handler = createMcpHttpHandler(served, { tokens: { "tok-bridge": "bridge-user" } });
    await old.close();
    // test_echo is read-only, so the runtime retries the unavailable attempt on a fresh connection.
    const r = await c.call("test_echo", { text: "two" });
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
    expect(r.data).toMatchObject({ data: { text: "two" } });
  });

  it("a wrong token is reported as refused credentials at load time", async () => {
    await expect(
      loadMcpBridgePlugin({
        id: "remote",
        url: `${http.url}/mcp`,
        headers: { authorization: "Bearer nope-nope" },
      }),
    ).rejects.toThrow(/refused the credentials|HTTP 401/);
  });
});
