import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type TaskEnabledSession } from "@modelcontextprotocol/ext-tasks/client";
import { type Catalog, createCatalog, memoryDriver } from "@quiver/core";
import { createTaskRunner, type TaskRunner } from "@quiver/tasks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { aborted, plugin, release, waiting } from "./fixtures/tasks-plugin.js";
import { eventually, listen } from "./helpers.js";

let catalog: Catalog;
let runner: TaskRunner;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
const open: Array<{ close: () => Promise<void> }> = [];

/** A 2025-11-25 client authenticated as `token`'s principal. */
const connect = async (token: string) => {
  const client = new Client({ name: "tasks-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  open.push(client);
  return client;
};
/** The official requester session over a connected client. */
const tasksOf = (client: Client): TaskEnabledSession => {
  const session = createTaskSessionFromClient(client, { endpointId: "quiver-test" });
  open.unshift(session);
  return session;
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

describe("MCP 2025-11-25 tasks over Streamable HTTP, with the official ext-tasks requester", () => {
  it("declares capabilities.tasks and taskSupport optional on task-capable tools only", async () => {
    const client = await connect("tok-a");
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "tasky_slow")?.execution).toEqual({ taskSupport: "optional" });
    expect(tools.find((t) => t.name === "tasky_quick")?.execution).toBeUndefined();
  });

  it("starts a task, polls its status, and settles to the result a plain call gives", async () => {
    const client = await connect("tok-a");
    const session = tasksOf(client);
    const execution = await session.callTool(
      "tasky_slow",
      { label: "settle" },
      { task: { preference: "require" } },
    );
    expect(execution.kind).toBe("task");
    const handle = execution.handle;
    if (!handle) throw new Error("no task was started");
    const taskId: string = handle.taskId;
    // Poll as any client would: working, with the tool's progress.
    await eventually(() => waiting.has("settle"));
    const status = await session.task(handle.taskId).snapshot();
    expect(status).toMatchObject({ taskId, status: "working", statusMessage: "settle: halfway" });
    await release("settle");
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    const settled = outcome.status === "completed" ? (outcome.result as Record<string, unknown>) : {};

    const plainCall = client.callTool({ name: "tasky_slow", arguments: { label: "plain" } });
    await release("plain");
    const plain = await plainCall;
    const essence = (r: Record<string, unknown>) => {
      const s = r.structuredContent as { status: string; data: { done: boolean }; message: string };
      return { isError: r.isError, status: s.status, done: s.data.done, message: s.message };
    };
    expect(essence(settled)).toEqual(essence(plain as Record<string, unknown>));
    expect(settled._meta).toMatchObject({ "io.modelcontextprotocol/related-task": { taskId } });
    const { tasks } = (await client.request(
      { method: "tasks/list", params: {} } as never,
      z.any() as never,
    )) as {
      tasks: Array<{ taskId: string; status: string }>;
    };
    expect(tasks).toContainEqual(expect.objectContaining({ taskId, status: "completed" }));
  });

  it("cancels a task mid-way: the tool's work stops and the outcome is cancelled", async () => {
    const session = tasksOf(await connect("tok-a"));
    const execution = await session.callTool(
      "tasky_slow",
      { label: "cancel" },
      { task: { preference: "require" } },
    );
    await eventually(() => waiting.has("cancel"));
    await execution.cancel();
    await eventually(() => aborted.has("cancel"));
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("cancelled");
  });

  it("bob can neither read nor cancel alice's task, and does not see it listed", async () => {
    const alice = tasksOf(await connect("tok-a"));
    const execution = await alice.callTool(
      "tasky_slow",
      { label: "owned" },
      { task: { preference: "require" } },
    );
    const taskId = execution.handle?.taskId as string;
    const bob = await connect("tok-b");
    const ask = (method: string) =>
      bob.request({ method, params: { taskId } } as never, z.any() as never).then(
        () => "answered",
        (e: { code?: number; message?: string }) => `${e.code}: ${e.message}`,
      );
    for (const method of ["tasks/get", "tasks/cancel", "tasks/result"]) {
      const answer = await ask(method);
      expect(answer).toMatch(/^-32602: .*No task/);
      expect(answer).not.toContain("alice");
    }
    const listed = (await bob.request({ method: "tasks/list", params: {} } as never, z.any() as never)) as {
      tasks: unknown[];
    };
    expect(listed.tasks).toEqual([]);
    await release("owned");
    expect((await execution.settle()).outcome.status).toBe("completed");
  });

  it("refuses a task for a tool that may not run as one (-32601), and plain calls still work", async () => {
    const client = await connect("tok-a");
    const refused = await client
      .request(
        { method: "tools/call", params: { name: "tasky_quick", arguments: { n: 2 }, task: {} } } as never,
        z.any() as never,
      )
      .then(
        () => undefined,
        (e: { code?: number }) => e.code,
      );
    expect(refused).toBe(-32601);
    const plain = await client.callTool({ name: "tasky_quick", arguments: { n: 2 } });
    expect(plain.structuredContent).toMatchObject({ status: "success", data: { n: 2 } });
  });

  it("takes the task's deadline from the request's _meta.timeout_seconds", async () => {
    const client = await connect("tok-a");
    const started = (await client.request(
      {
        method: "tools/call",
        params: {
          name: "tasky_slow",
          arguments: { label: "meta-deadline" },
          task: {},
          _meta: { timeout_seconds: 120 },
        },
      } as never,
      z.any() as never,
    )) as { task: { taskId: string } };
    const got = await runner.get(started.task.taskId, "alice");
    expect(got.ok && got.task.deadlineAt - got.task.createdAt).toBe(120_000);
    await release("meta-deadline");
  });
});
