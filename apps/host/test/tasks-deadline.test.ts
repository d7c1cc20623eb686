import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// A task's deadline on a real `quiver serve` process: the request's `timeout_seconds`, else the
// config file's `tasks.tools`, else the tool's own (`task: { support, deadline }`), else
// `tasks.deadline`; a task that reaches it keeps what its tool found, marked incomplete.
const ALICE = { authorization: "Bearer tok-a" };
const ASYNC = { prefer: "respond-async" };

let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  project = makeProject({
    fixtures: ["tasky-deadline"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        tasks: { deadline: "10 minutes", tools: { deadline_configured: "20 minutes" } },
      }),
    },
  });
  serve = await startServe([], { cwd: project.dir, env: { QUIVER_TOKENS: "tok-a=alice" } });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

type Task = { id: string; status: string; createdAt: number; deadlineAt: number };

/** Starts a call with `Prefer: respond-async`; answers the task and its Location. */
const start = async (tool: string, body: unknown) => {
  const r = await fetch(`${serve.url}/tools/${tool}/call`, {
    method: "POST",
    headers: { "content-type": "application/json", ...ALICE, ...ASYNC },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(202);
  const { task } = (await r.json()) as { task: Task };
  return { task, location: r.headers.get("location") as string };
};

const cancel = (location: string) =>
  fetch(new URL(location, serve.url), { method: "DELETE", headers: ALICE });

describe("a task's deadline", () => {
  it("is the tool's own when the config names none for it, over tasks.deadline; the catalog lists it", async () => {
    const tools = (await (await fetch(`${serve.url}/tools`, { headers: ALICE })).json()) as {
      tools: Array<{ name: string; task?: string; taskDeadlineMs?: number }>;
    };
    expect(tools.tools.find((t) => t.name === "deadline_own")).toMatchObject({
      task: "optional",
      taskDeadlineMs: 7 * 60_000,
    });
    const { task, location } = await start("deadline_own", { label: "own" });
    expect(task.deadlineAt - task.createdAt).toBe(7 * 60_000);
    expect((await cancel(location)).status).toBe(200);
  });

  it("is the config file's tasks.tools over the tool's own", async () => {
    const { task, location } = await start("deadline_configured", { label: "configured" });
    expect(task.deadlineAt - task.createdAt).toBe(20 * 60_000);
    expect((await cancel(location)).status).toBe(200);
  });

  it("is the request's timeout_seconds over both; reached, the task keeps what was found, marked incomplete", async () => {
    const { task, location } = await start("deadline_own", {
      input: { label: "late" },
      timeout_seconds: 0.5,
    });
    expect(task.deadlineAt - task.createdAt).toBe(500);
    let ended: Response;
    for (;;) {
      ended = await fetch(new URL(location, serve.url), { headers: ALICE });
      if (ended.status !== 202) break;
      await ended.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(ended.status).toBe(200);
    expect(ended.headers.get("x-quiver-status")).toBe("partial");
    // A task that ends with what it found completes (as a partial answer); it does not fail.
    expect(ended.headers.get("x-quiver-task-status")).toBe("completed");
    const envelope = await ended.json();
    expect(envelope).toMatchObject({
      status: "partial",
      data: { found: ["late: first"] },
      metadata: { incomplete: true },
      error: { kind: "unavailable" },
    });
    expect(envelope.message).toBe(
      "deadline_own was cancelled before it finished: the task reached its deadline of 1 s; returning what was found so far.",
    );
  });
});
