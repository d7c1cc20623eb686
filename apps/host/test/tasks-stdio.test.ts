import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, eventually, makeProject, type Project } from "./helpers.js";
import { startHoldServer } from "./hold-server.js";

// `quiver serve --stdio` (a real process) serves MCP 2025-11-25 tasks, checked with the official
// @modelcontextprotocol/ext-tasks requester client.
let project: Project;
let hold: Awaited<ReturnType<typeof startHoldServer>>;

beforeAll(async () => {
  hold = await startHoldServer();
  project = makeProject({ fixtures: ["tasky"] });
});
afterAll(async () => {
  await hold?.close();
  project?.cleanup();
});

describe("quiver serve --stdio: MCP tasks", () => {
  it("settles a task to the plain call's result, and cancels another mid-way", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--stdio"],
      cwd: project.dir,
      env: cleanEnv({ QUIVER_PRINCIPAL: "carol", TASKY_URL: hold.url }),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += d));
    const client = new Client({ name: "tasks-stdio", version: "1.0.0" });
    await client.connect(transport);
    const session = createTaskSessionFromClient(client, { endpointId: "quiver-stdio" });
    try {
      expect(client.getServerCapabilities()?.tasks).toMatchObject({ cancel: {}, list: {} });
      const execution = await session.callTool(
        "tasky_slow",
        { label: "stdio-settle" },
        { task: { preference: "require" } },
      );
      const handle = execution.handle;
      if (!handle) throw new Error(`no task was started\n${stderr}`);
      await eventually(() => hold.held.has("stdio-settle"));
      expect(await session.task(handle.taskId).snapshot()).toMatchObject({ status: "working" });
      await hold.release("stdio-settle", "stdio answer");
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("completed");
      const settled = outcome.status === "completed" ? (outcome.result as Record<string, unknown>) : {};
      const plainCall = client.callTool({ name: "tasky_slow", arguments: { label: "stdio-settle" } });
      await hold.release("stdio-settle", "stdio answer");
      const plain = (await plainCall) as Record<string, unknown>;
      const { callId: _a, durationMs: _b, ...settledMeta } = (settled.structuredContent as any).metadata;
      const { callId: _c, durationMs: _d, ...plainMeta } = (plain.structuredContent as any).metadata;
      expect({ ...(settled.structuredContent as object), metadata: settledMeta }).toEqual({
        ...(plain.structuredContent as object),
        metadata: plainMeta,
      });

      const second = await session.callTool(
        "tasky_slow",
        { label: "stdio-cancel" },
        { task: { preference: "require" } },
      );
      await eventually(() => hold.held.has("stdio-cancel"));
      await second.cancel();
      await eventually(() => hold.aborted.has("stdio-cancel"));
      expect((await second.settle()).outcome.status).toBe("cancelled");
    } finally {
      await session.close().catch(() => {});
      await client.close();
    }
  });
});
