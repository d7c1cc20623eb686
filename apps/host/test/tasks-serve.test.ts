import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { startHoldServer } from "./hold-server.js";
import { connectTasks, type TaskClient } from "./tasks-clients.js";

// `quiver serve` (a real process) serves MCP tasks for its task-capable tools in both eras over
// Streamable HTTP, checked with the official @modelcontextprotocol/ext-tasks requester client.
let project: Project;
let hold: Awaited<ReturnType<typeof startHoldServer>>;
let serve: ServeProcess;
const open: TaskClient[] = [];

beforeAll(async () => {
  hold = await startHoldServer();
  project = makeProject({ fixtures: ["tasky"] });
  serve = await startServe([], {
    cwd: project.dir,
    env: { QUIVER_TOKENS: "tok-a=alice,tok-b=bob", TASKY_URL: hold.url, QUIVER_SHUTDOWN_TIMEOUT: "1s" },
  });
}, 30_000);
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  await hold?.close();
  project?.cleanup();
});

const connect = async (token: string, era: "legacy" | "modern") => {
  const c = await connectTasks(serve.url, token, era);
  open.push(c);
  return c;
};

/** What a tools/call result says, without its ids and timings. */
const essence = (r: Record<string, unknown>) => {
  const s = r.structuredContent as { status: string; data: unknown; message: string };
  return { isError: r.isError, status: s.status, data: s.data, message: s.message };
};

describe.each(["legacy", "modern"] as const)(
  "quiver serve: MCP tasks over Streamable HTTP (%s era)",
  (era) => {
    it("lists tasky_slow as task-capable, settles a task to the plain call's result", async () => {
      const { client, session } = await connect("tok-a", era);
      if (era === "modern") {
        expect(client.getServerCapabilities()?.extensions).toMatchObject({
          "io.modelcontextprotocol/tasks": {},
        });
      } else {
        const { tools } = await client.listTools();
        expect(tools.find((t) => t.name === "tasky_slow")?.execution).toEqual({ taskSupport: "optional" });
        expect(tools.find((t) => t.name === "tasky_quick")?.execution).toBeUndefined();
      }
      const label = `${era}-settle`;
      const execution = await session.callTool("tasky_slow", { label }, { task: { preference: "require" } });
      expect(execution.kind).toBe("task");
      const handle = execution.handle;
      if (!handle) throw new Error("no task was started");
      await eventually(() => hold.held.has(label));
      expect(await session.task(handle.taskId).snapshot()).toMatchObject({
        taskId: handle.taskId,
        status: "working",
        statusMessage: `${label}: halfway`,
      });
      await hold.release(label, "forty-two");
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("completed");
      const settled = outcome.status === "completed" ? (outcome.result as Record<string, unknown>) : {};

      const plainCall = client.callTool({ name: "tasky_slow", arguments: { label } });
      await hold.release(label, "forty-two");
      const plain = (await plainCall) as Record<string, unknown>;
      expect(essence(settled)).toEqual(essence(plain));
      expect(essence(settled).data).toEqual({ label, answer: "forty-two" });
    });

    it("cancels a task mid-way (its upstream request is aborted); bob can neither read nor cancel it", async () => {
      const alice = await connect("tok-a", era);
      const label = `${era}-cancel`;
      const execution = await alice.session.callTool(
        "tasky_slow",
        { label },
        { task: { preference: "require" } },
      );
      const handle = execution.handle;
      if (!handle) throw new Error("no task was started");
      const { taskId } = handle;
      await eventually(() => hold.held.has(label));
      const bob = await connect("tok-b", era);
      await expect(bob.session.task(taskId).snapshot()).rejects.toThrow(/No task/);
      await expect(bob.session.task(taskId).cancel()).rejects.toThrow(/No task/);
      expect(hold.aborted.has(label)).toBe(false);
      await execution.cancel();
      await eventually(() => hold.aborted.has(label));
      expect((await execution.settle()).outcome.status).toBe("cancelled");
    });
  },
);
