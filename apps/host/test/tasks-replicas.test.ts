import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { startHoldServer } from "./hold-server.js";
import { hasRedisServer, startRedisServer } from "./redis-server.js";
import { stopReplicas } from "./replica-helpers.js";
import { connectTasks } from "./tasks-clients.js";

// Two `quiver serve` replicas on one Redis share their tasks: a task started on A is polled and
// cancelled through B, and the cancel stops the work on A (its upstream request is aborted).
const up = hasRedisServer();
if (!up) console.log("skipped (task replica tests): redis-server and redis-cli are not installed");

let redis: Awaited<ReturnType<typeof startRedisServer>>;
let hold: Awaited<ReturnType<typeof startHoldServer>>;
let project: Project;
const replicas: ServeProcess[] = [];
const ALICE = { authorization: "Bearer tok-a" };

beforeAll(async () => {
  if (!up) return;
  redis = await startRedisServer();
  hold = await startHoldServer();
  project = makeProject({ fixtures: ["tasky"] });
  const env = { QUIVER_REDIS_URL: redis.url, QUIVER_TOKENS: "tok-a=alice,tok-b=bob", TASKY_URL: hold.url };
  replicas.push(...(await Promise.all([0, 1].map(() => startServe([], { cwd: project.dir, env })))));
}, 60_000);
afterAll(async () => {
  await stopReplicas(replicas);
  await hold?.close();
  await redis?.stop();
  project?.cleanup();
});

describe.skipIf(!up)("tasks on two quiver serve replicas sharing Redis", () => {
  it("a task started on A over HTTP is polled on B, and a cancel sent to B stops it on A", async () => {
    const [a, b] = replicas as [ServeProcess, ServeProcess];
    const started = await fetch(`${a.url}/tools/tasky_slow/call`, {
      method: "POST",
      headers: { "content-type": "application/json", prefer: "respond-async", ...ALICE },
      body: JSON.stringify({ label: "replica-cancel" }),
    });
    expect(started.status).toBe(202);
    const location = started.headers.get("location") as string;
    await eventually(() => hold.held.has("replica-cancel"));
    const polled = await fetch(new URL(location, b.url), { headers: ALICE });
    expect(polled.status).toBe(202);
    expect(
      (await fetch(new URL(location, b.url), { headers: { authorization: "Bearer tok-b" } })).status,
    ).toBe(404);
    const cancelled = await fetch(new URL(location, b.url), { method: "DELETE", headers: ALICE });
    expect(cancelled.status).toBe(200);
    await eventually(() => hold.aborted.has("replica-cancel"));
    expect((await fetch(new URL(location, a.url), { headers: ALICE })).status).toBe(410);
  });

  it("a task started over MCP (2026-07-28, stateless) on A settles through B", async () => {
    const [a, b] = replicas as [ServeProcess, ServeProcess];
    const onA = await connectTasks(a.url, "tok-a", "modern");
    const onB = await connectTasks(b.url, "tok-a", "modern");
    try {
      const execution = await onA.session.callTool(
        "tasky_slow",
        { label: "replica-settle" },
        { task: { preference: "require" } },
      );
      const handle = execution.handle;
      if (!handle) throw new Error("no task was started");
      const { taskId } = handle;
      await eventually(() => hold.held.has("replica-settle"));
      expect(await onB.session.task(taskId).snapshot()).toMatchObject({ status: "working" });
      await hold.release("replica-settle", "shared");
      await eventually(async () => (await onB.session.task(taskId).snapshot()).status === "completed");
      const result = await fetch(`${b.url}/tasks/${taskId}`, { headers: ALICE });
      expect(result.status).toBe(200);
      expect((await result.json()).data).toEqual({ label: "replica-settle", answer: "shared" });
    } finally {
      await onA.close();
      await onB.close();
    }
  });
});
