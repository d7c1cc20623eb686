import { spawn } from "node:child_process";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ToolResult } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually, QUIVER_STDIO, startHangingUpstream } from "./helpers.js";

type Envelope = ToolResult;

let upstream: Awaited<ReturnType<typeof startHangingUpstream>>;
const clients: Client[] = [];

/** Spawns the stdio fixture (a catalog with the test plugin) and connects the SDK client to it. */
const spawnServer = async (onToolsChanged?: () => void) => {
  const transport = new StdioClientTransport({
    ...QUIVER_STDIO,
    env: { PATH: process.env.PATH ?? "", TEST_UPSTREAM_URL: upstream.url, QUIVER_PRINCIPAL: "carol" },
    stderr: "pipe",
  });
  const client = new Client(
    { name: "stdio-test", version: "1.0.0" },
    onToolsChanged
      ? { listChanged: { tools: { onChanged: () => onToolsChanged(), autoRefresh: false } } }
      : {},
  );
  await client.connect(transport);
  clients.push(client);
  return { client, pid: transport.pid! };
};

beforeAll(async () => {
  upstream = await startHangingUpstream();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
});
afterAll(async () => {
  await upstream.close();
});

// Each test spawns a host from TypeScript sources: on a loaded 2-core machine that alone can take seconds.
describe("MCP over stdio with the SDK client (a spawned host process)", { timeout: 30_000 }, () => {
  it("lists the catalog's tools with schemas and annotations", async () => {
    const { client } = await spawnServer();
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "test_echo",
      "test_fail",
      "test_progress",
      "test_wait_upstream",
      "test_whoami",
    ]);
    const echo = tools.find((t) => t.name === "test_echo")!;
    expect(echo.inputSchema).toMatchObject({
      type: "object",
      required: ["text"],
      properties: { text: { type: "string", minLength: 1 } },
    });
    expect(echo.outputSchema).toMatchObject({
      type: "object",
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword in the served output schema
      then: { properties: { data: { properties: { text: { type: "string" } } } } },
    });
    expect(echo.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("calls a tool and answers the envelope; a failure is isError with the error envelope", async () => {
    const { client } = await spawnServer();
    const ok = await client.callTool({ name: "test_echo", arguments: { text: "over stdio" } });
    expect(ok.isError).toBe(false);
    expect(ok.structuredContent).toMatchObject({ status: "success", data: { text: "over stdio" } });
    const bad = await client.callTool({ name: "test_fail", arguments: { reason: "stdio" } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ status: "error", error: { kind: "out_of_domain" } });
  });

  it("forwards progress notifications", async () => {
    const { client } = await spawnServer();
    const seen: number[] = [];
    const result = await client.callTool(
      { name: "test_progress", arguments: { steps: 3, delayMs: 10 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect((result.structuredContent as Envelope).status).toBe("success");
    expect(seen).toEqual([1, 2, 3]);
  });

  it("cancellation interrupts the run and aborts its upstream request", async () => {
    const { client } = await spawnServer();
    const controller = new AbortController();
    const call = client.callTool(
      { name: "test_wait_upstream", arguments: { tag: "stdio-cancel" } },
      { signal: controller.signal },
    );
    await upstream.until(() => upstream.seen.some((s) => s.tag === "stdio-cancel"));
    controller.abort();
    await expect(call).rejects.toThrow();
    await upstream.until(() => upstream.seen.find((s) => s.tag === "stdio-cancel")?.closedByClient === true);
    // The server is still healthy after the cancellation.
    const after = await client.callTool({ name: "test_echo", arguments: { text: "still here" } });
    expect(after.structuredContent).toMatchObject({ status: "success" });
  });

  it("sends tools/list_changed when a plugin is registered", async () => {
    let changed = 0;
    const { client, pid } = await spawnServer(() => changed++);
    process.kill(pid, "SIGUSR2");
    await eventually(() => changed > 0);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("extra_ping");
  });

  it("runs every call as the configured principal", async () => {
    const { client } = await spawnServer();
    const who = await client.callTool({ name: "test_whoami", arguments: {} });
    expect(who.structuredContent).toMatchObject({ data: { principal: "carol" } });
  });
});

describe("standard output carries the MCP stream alone", () => {
  it("sends what else the process writes to stdout (console.log, process.stdout.write) to stderr", async () => {
    const child = spawn(QUIVER_STDIO.command, QUIVER_STDIO.args, {
      cwd: QUIVER_STDIO.cwd,
      env: { PATH: process.env.PATH ?? "", TEST_UPSTREAM_URL: upstream.url, CHATTY: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const lines = [
      {
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      { method: "notifications/initialized" },
      { id: 2, method: "tools/call", params: { name: "test_echo", arguments: { text: "clean" } } },
    ];
    const exited = once(child, "exit");
    child.stdin.write(lines.map((m) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`).join(""));
    // The fixture stops when stdin ends: end it once the call is answered.
    while (!stdout.includes('"id":2')) await once(child.stdout, "data");
    child.stdin.end();
    const [code] = await exited;
    expect(code).toBe(0);
    const out = stdout.split("\n").filter((l) => l.trim());
    // Every line on stdout is a JSON-RPC message, and the call was answered.
    expect(out.map((l) => (JSON.parse(l) as { jsonrpc?: string }).jsonrpc)).toEqual(["2.0", "2.0"]);
    expect(JSON.parse(out[1] ?? "{}")).toMatchObject({
      id: 2,
      result: { structuredContent: { status: "success" } },
    });
    expect(stderr).toContain("chatty: console.log while serving\n");
    expect(stderr).toContain("chatty: process.stdout.write while serving\n");
  }, 30_000);
});
