import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { afterEach, describe, expect, it } from "vitest";
import { PACKAGE_DIR, TS_NODE_ARGS } from "./helpers.js";

const SERVER = fileURLToPath(new URL("./fixtures/tasks-stdio-server.ts", import.meta.url));
const open: Array<{ close: () => Promise<void> }> = [];

/** Polls a task as a client would until its status message is `message` (a wait, not a timing assertion). */
const untilMessage = async (read: () => Promise<{ statusMessage?: string }>, message: string) => {
  for (let i = 0; i < 500; i++) {
    if ((await read()).statusMessage === message) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the task never said "${message}"`);
};

afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => {});
});

/** Spawns the stdio task server (a host process) and connects the SDK client and the requester session. */
const spawnServer = async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...TS_NODE_ARGS, SERVER],
    cwd: PACKAGE_DIR,
    env: { PATH: process.env.PATH ?? "", RELEASE_LABEL: "stdio-settle" },
    stderr: "pipe",
  });
  const client = new Client({ name: "tasks-stdio", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  const session = createTaskSessionFromClient(client, { endpointId: "quiver-stdio" });
  open.unshift(session);
  return { client, session, pid: transport.pid as number };
};

describe("MCP 2025-11-25 tasks over stdio (a spawned host process)", () => {
  it("starts a task, polls it, and settles it; another task is cancelled mid-way", async () => {
    const { session, pid } = await spawnServer();
    const execution = await session.callTool(
      "tasky_slow",
      { label: "stdio-settle" },
      { task: { preference: "require" } },
    );
    expect(execution.kind).toBe("task");
    const handle = execution.handle;
    if (!handle) throw new Error("no task was started");
    await untilMessage(() => session.task(handle.taskId).snapshot(), "stdio-settle: halfway");
    process.kill(pid, "SIGUSR2");
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    const result = outcome.status === "completed" ? (outcome.result as Record<string, unknown>) : {};
    expect(result.structuredContent).toMatchObject({
      status: "success",
      data: { label: "stdio-settle", done: true },
    });

    const second = await session.callTool(
      "tasky_slow",
      { label: "stdio-cancel" },
      { task: { preference: "require" } },
    );
    const secondHandle = second.handle;
    if (!secondHandle) throw new Error("no task was started");
    await untilMessage(() => session.task(secondHandle.taskId).snapshot(), "stdio-cancel: halfway");
    await second.cancel();
    expect((await second.settle()).outcome.status).toBe("cancelled");
  });
});
