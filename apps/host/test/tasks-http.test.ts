import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { P04637_SEQUENCE, pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { eventually, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { startHoldServer } from "./hold-server.js";

// `Prefer: respond-async` on a real `quiver serve` process: `POST /tools/{name}/call` and the
// co-scientist's `POST /external-tools/execute` answer 202 with a Location; GET polls it (202 while
// working, then the result), DELETE cancels it; each task belongs to its caller's principal.
const KEYS = {
  CONTEXT7_API_KEY: "c7-test",
  PERPLEXITY_API_KEY: "pplx-test",
  RAG_API_KEY: "rag-test",
  LLM_API_KEY: "llm-test",
  OPENFDA_API_KEY: "fda-test",
  MONGODB_URI: "mongodb://127.0.0.1:9/none",
};
const ALICE = { authorization: "Bearer tok-a" };
const BOB = { authorization: "Bearer tok-b" };
const ASYNC = { prefer: "respond-async" };

let up: Upstreams;
let hold: Awaited<ReturnType<typeof startHoldServer>>;
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  up = await startUpstreams(KEYS);
  hold = await startHoldServer();
  project = makeProject({
    fixtures: ["tasky"],
    workspace: ["@quiver/plugin-alphafold"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        profile: "co-scientist",
        tasks: { deadline: "10 minutes", tools: { tasky_slow: "20 minutes" } },
        plugins: { alphafold: { options: pluginSettings(up, KEYS).options.alphafold } },
      }),
    },
  });
  serve = await startServe([], {
    cwd: project.dir,
    env: { QUIVER_TOKENS: "tok-a=alice,tok-b=bob", TASKY_URL: hold.url, QUIVER_SHUTDOWN_TIMEOUT: "1s" },
  });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  await hold?.close();
  await up?.close();
  project?.cleanup();
});

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${serve.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const at = (location: string, headers: Record<string, string>, method = "GET") =>
  fetch(new URL(location, serve.url), { method, headers });

/** Polls a task's Location as a client would, until it answers other than 202. */
const settle = async (location: string, headers: Record<string, string>) => {
  for (;;) {
    const r = await at(location, headers);
    if (r.status !== 202) return r;
    await r.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

type TaskBody = { task: { id: string; status: string; createdAt: number; deadlineAt: number } };
/** The task the last `startAsync` started. */
let lastTask: TaskBody["task"];

/** Starts a call with `Prefer: respond-async` and answers its Location. */
const startAsync = async (path: string, body: unknown, headers = ALICE) => {
  const r = await post(path, body, { ...headers, ...ASYNC });
  expect(r.status).toBe(202);
  expect(r.headers.get("preference-applied")).toBe("respond-async");
  const { task } = (await r.json()) as TaskBody;
  expect(task.status).toBe("working");
  const location = r.headers.get("location") as string;
  expect(location).toBe(`/tasks/${task.id}`);
  lastTask = task;
  return location;
};

/** What an envelope says, without its ids and timings. */
const essence = (e: { status: string; message: string; data: unknown }) => ({
  status: e.status,
  message: e.message,
  data: e.data,
});

describe("POST /tools/{name}/call with Prefer: respond-async", () => {
  it("answers 202 and a Location; GET polls (202 with progress), then answers the plain call's envelope", async () => {
    const location = await startAsync("/tools/tasky_slow/call", { label: "api-settle" });
    // The config file's deadline for this tool (`tasks.tools`), over `tasks.deadline`.
    expect(lastTask.deadlineAt - lastTask.createdAt).toBe(20 * 60_000);
    await eventually(() => hold.held.has("api-settle"));
    const working = await at(location, ALICE);
    expect(working.status).toBe(202);
    expect(Number(working.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await working.json()).toMatchObject({
      task: { status: "working", tool: "tasky_slow", progress: { message: "api-settle: halfway" } },
    });
    await hold.release("api-settle", "done");
    const done = await settle(location, ALICE);
    expect(done.status).toBe(200);
    expect(done.headers.get("x-quiver-task-status")).toBe("completed");
    const envelope = await done.json();

    const plainCall = post("/tools/tasky_slow/call", { label: "api-settle" }, ALICE);
    await hold.release("api-settle", "done");
    const plain = await plainCall;
    expect(plain.status).toBe(200);
    expect(essence(envelope)).toEqual(essence(await plain.json()));
    expect(envelope.data).toEqual({ label: "api-settle", answer: "done" });
  });

  it("DELETE cancels it mid-way (its upstream request is aborted); bob gets 404 for alice's task", async () => {
    const location = await startAsync("/tools/tasky_slow/call", { label: "api-cancel" });
    await eventually(() => hold.held.has("api-cancel"));
    expect((await at(location, BOB)).status).toBe(404);
    expect((await at(location, BOB, "DELETE")).status).toBe(404);
    expect((await (await fetch(`${serve.url}/tasks`, { headers: BOB })).json()).tasks).toEqual([]);
    expect(hold.aborted.has("api-cancel")).toBe(false);
    const cancelled = await at(location, ALICE, "DELETE");
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).task.status).toBe("cancelled");
    await eventually(() => hold.aborted.has("api-cancel"));
    const gone = await at(location, ALICE);
    expect(gone.status).toBe(410);
    expect((await gone.json()).error.code).toBe("task_cancelled");
    expect((await at(location, ALICE, "DELETE")).status).toBe(409);
    const { tasks } = (await (await fetch(`${serve.url}/tasks`, { headers: ALICE })).json()) as {
      tasks: Array<{ id: string; status: string }>;
    };
    expect(tasks).toContainEqual(
      expect.objectContaining({ id: location.split("/")[2], status: "cancelled" }),
    );
  });

  it("timeout_seconds is the task's deadline: the call is stopped and the task fails with its envelope", async () => {
    const location = await startAsync("/tools/tasky_slow/call", {
      input: { label: "api-deadline" },
      timeout_seconds: 0.5,
    });
    const ended = await settle(location, ALICE);
    expect(ended.headers.get("x-quiver-task-status")).toBe("failed");
    expect(ended.status).toBe(200);
    expect((await ended.json()).message).toMatch(/tasky_slow was cancelled .*the task reached its deadline/);
    expect(hold.aborted.has("api-deadline")).toBe(true);
    const refused = await post(
      "/tools/tasky_slow/call",
      { input: { label: "x" }, timeout_seconds: -1 },
      {
        ...ALICE,
        ...ASYNC,
      },
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe("invalid_timeout");
  });

  it("a tool that may not run as a task, or a request without the header, is answered when done", async () => {
    const quick = await post("/tools/tasky_quick/call", { n: 7 }, { ...ALICE, ...ASYNC });
    expect(quick.status).toBe(200);
    expect(quick.headers.get("preference-applied")).toBeNull();
    expect((await quick.json()).data).toEqual({ n: 7 });
    const plain = post("/tools/tasky_slow/call", { label: "api-plain" }, ALICE);
    await hold.release("api-plain", "sync");
    const r = await plain;
    expect(r.status).toBe(200);
    expect((await r.json()).data).toEqual({ label: "api-plain", answer: "sync" });
  });
});

describe("POST /external-tools/execute with Prefer: respond-async", () => {
  const fold = {
    tool_type: "SPECIALIZED_MODEL",
    tool_name: "AlphaFold",
    query: { sequence: P04637_SEQUENCE, structure_type: "pdb" },
  };

  it("polls to the ExternalToolResponse the synchronous request answers", async () => {
    const location = await startAsync("/external-tools/execute", { ...fold, timeout_seconds: 60 });
    // The request's timeout_seconds, and a grace for the executor's own TIMEOUT answer.
    expect(lastTask.deadlineAt - lastTask.createdAt).toBe(65_000);
    const done = await settle(location, ALICE);
    expect(done.status).toBe(200);
    const response = await done.json();
    expect(response.status, JSON.stringify(response.metadata)).toBe("SUCCESS");
    const sync = await (await post("/external-tools/execute", fold, ALICE)).json();
    expect(Object.keys(response).sort()).toEqual(Object.keys(sync).sort());
    expect(response.results).toEqual(sync.results);
    expect((await at(location, BOB)).status).toBe(404);
  });

  it("DELETE cancels a fold that hangs", async () => {
    up.fold.fault("*", /.*/, { kind: "hang" });
    try {
      const location = await startAsync("/external-tools/execute", {
        tool_type: "SPECIALIZED_MODEL",
        tool_name: "ESMFold",
        query: { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQWW" },
      });
      expect((await at(location, BOB, "DELETE")).status).toBe(404);
      const cancelled = await at(location, ALICE, "DELETE");
      expect(cancelled.status).toBe(200);
      expect((await at(location, ALICE)).status).toBe(410);
    } finally {
      up.fold.clearFaults();
    }
  });
});
