import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  type TaskEnabledSession,
} from "@modelcontextprotocol/ext-tasks/client";
import { TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { type Catalog, createCatalog, memoryDriver } from "@quiver/core";
import { createTaskRunner, type TaskRunner } from "@quiver/tasks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { aborted, plugin, release, waiting } from "./fixtures/tasks-plugin.js";
import { eventually, listen } from "./helpers.js";

const VERSION = "2026-07-28";
let catalog: Catalog;
let runner: TaskRunner;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
const open: Array<{ close: () => Promise<void> }> = [];
let ids = 0;

/**
 * The host's raw request path the extension's client needs against a 2026-07-28 server (its
 * `rawDispatch`): one POST per request with the era's standard headers, answered as JSON or SSE.
 */
const rawDispatch =
  (token: string): RawClientDispatch =>
  async (request) => {
    const body = request as { method: string; params?: Record<string, unknown> };
    const name = body.method === "tools/call" ? body.params?.name : body.params?.taskId;
    const id = ++ids;
    const response = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": body.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, ...body }),
    });
    const text = await response.text();
    const messages = (response.headers.get("content-type") ?? "").includes("text/event-stream")
      ? text
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => JSON.parse(l.slice(5)))
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === id);
    return answer.error ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
  };

/** A 2026-07-28 client and the official requester session over it, authenticated as `token`. */
const connect = async (token: string): Promise<{ client: Client; session: TaskEnabledSession }> => {
  const client = new Client(
    { name: "tasks-modern", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: VERSION } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  open.push(client);
  const session = createTaskSessionFromClient(client, {
    endpointId: "quiver-modern",
    rawDispatch: rawDispatch(token),
    v2RequestFraming: {
      protocolVersion: VERSION,
      clientInfo: { name: "tasks-modern", version: "1.0.0" },
      clientCapabilities: {},
    },
  });
  open.unshift(session);
  return { client, session };
};

beforeAll(async () => {
  catalog = createCatalog();
  catalog.register(plugin);
  runner = createTaskRunner({ catalog, store: memoryDriver(), pollIntervalMs: 20, progressIntervalMs: 0 });
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-a": "alice", "tok-b": "bob" }, tasks: runner });
  http = await listen((req, res) => void handler(req, res));
});

afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => {});
});

afterAll(async () => {
  await handler.close();
  await http.close();
  await runner.close();
  await catalog.close();
});

describe("the 2026-07-28 tasks extension (io.modelcontextprotocol/tasks), with rawDispatch and v2RequestFraming", () => {
  it("declares the extension in server/discover and settles a task to the result a plain call gives", async () => {
    const { client, session } = await connect("tok-a");
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerCapabilities()?.extensions).toMatchObject({ [TASKS_EXTENSION_ID_V2]: {} });
    const execution = await session.callTool(
      "tasky_slow",
      { label: "v2-settle" },
      { task: { preference: "require" } },
    );
    expect(execution.kind).toBe("task");
    const handle = execution.handle;
    if (!handle) throw new Error("no task was started");
    await eventually(() => waiting.has("v2-settle"));
    expect(await session.task(handle.taskId).snapshot()).toMatchObject({
      status: "working",
      statusMessage: "v2-settle: halfway",
    });
    await release("v2-settle");
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    const settled = outcome.status === "completed" ? (outcome.result as Record<string, unknown>) : {};

    const plainCall = client.callTool({ name: "tasky_slow", arguments: { label: "v2-plain" } });
    await release("v2-plain");
    const plain = (await plainCall) as Record<string, unknown>;
    const essence = (r: Record<string, unknown>) => {
      const s = r.structuredContent as { status: string; data: unknown; message: string };
      return { isError: r.isError, status: s.status, data: s.data, message: s.message };
    };
    expect(essence(settled)).toEqual({ ...essence(plain), data: { label: "v2-settle", done: true } });
  });

  it("cancels a task mid-way, and bob cannot read or cancel alice's task", async () => {
    const alice = await connect("tok-a");
    const execution = await alice.session.callTool(
      "tasky_slow",
      { label: "v2-cancel" },
      { task: { preference: "require" } },
    );
    const handle = execution.handle;
    if (!handle) throw new Error("no task was started");
    await eventually(() => waiting.has("v2-cancel"));
    const bob = await connect("tok-b");
    await expect(bob.session.task(handle.taskId).snapshot()).rejects.toThrow(/No task/);
    await expect(bob.session.task(handle.taskId).cancel()).rejects.toThrow(/No task/);
    expect(aborted.has("v2-cancel")).toBe(false);
    await execution.cancel();
    await eventually(() => aborted.has("v2-cancel"));
    expect((await execution.settle()).outcome.status).toBe("cancelled");
  });
});
