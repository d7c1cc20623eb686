import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAfdbEmulator } from "../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import type { AgentUpstream } from "../../../packages/plugins/perplexity/test/agent-upstream.js";
import { routePerplexity } from "../../../packages/plugins/perplexity/test/perplexity-upstream.js";
import { eventually, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { startHoldServer } from "./hold-server.js";
import { hasRedisServer, startRedisServer } from "./redis-server.js";
import { stopReplicas } from "./replica-helpers.js";

// Two `quiver serve` replicas on one Redis, with a one-second task lease. Replica A is killed
// (SIGKILL) in the middle of two tasks: its Perplexity deep research, whose tool stored its run's id
// as the resume point, is taken over by B, which polls that same run to completion (no second paid
// submit, no cancel); its ESMFold fold (alphafold_predict_structure of a new sequence, ESMFold
// answering only when told) and its tasky_slow task, which stored none, end `failed` saying why.
const up = hasRedisServer();
if (!up) console.log("skipped (task takeover tests): redis-server and redis-cli are not installed");

const KEY = "pplx-test-takeover-9e2b";
const QUERY = "Find the official TypeScript website and describe TypeScript in one sentence with a citation.";
const ALICE = { authorization: "Bearer tok-a" };
const NEW_SEQUENCE = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ";
let redis: Awaited<ReturnType<typeof startRedisServer>>;
let hold: Awaited<ReturnType<typeof startHoldServer>>;
let perplexity: Emulator;
let afdb: Awaited<ReturnType<typeof startAfdbEmulator>>;
let agent: AgentUpstream;
let project: Project;
const replicas: ServeProcess[] = [];

beforeAll(async () => {
  if (!up) return;
  redis = await startRedisServer();
  hold = await startHoldServer();
  perplexity = await startEmulator();
  agent = routePerplexity(perplexity, KEY);
  afdb = await startAfdbEmulator();
  // UniProt (the AlphaFold DB emulator) finds no match for a new sequence; ESMFold is the hold server.
  const alphafold = { alphafoldUrl: afdb.up.url, uniprotUrl: afdb.up.url, esmfoldUrl: hold.url };
  project = makeProject({
    fixtures: ["tasky"],
    workspace: ["@quiver/plugin-perplexity", "@quiver/plugin-alphafold"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({ tasks: { lease: "1s" }, plugins: { alphafold: { options: alphafold } } }),
    },
  });
  const env = {
    QUIVER_REDIS_URL: redis.url,
    QUIVER_TOKENS: "tok-a=alice",
    TASKY_URL: hold.url,
    PERPLEXITY_API_KEY: KEY,
    PERPLEXITY_BASE_URL: perplexity.url,
    PERPLEXITY_RESEARCH_POLL_MS: "50",
  };
  replicas.push(...(await Promise.all([0, 1].map(() => startServe([], { cwd: project.dir, env })))));
}, 60_000);
afterAll(async () => {
  await stopReplicas(replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null));
  await hold?.close();
  await perplexity?.close();
  await afdb?.up.close();
  await redis?.stop();
  project?.cleanup();
});

/** Starts `tool` as a task on `replica` (`Prefer: respond-async`); answers its Location. */
const startTask = async (replica: ServeProcess, tool: string, input: unknown) => {
  const started = await fetch(`${replica.url}/tools/${tool}/call`, {
    method: "POST",
    headers: { "content-type": "application/json", prefer: "respond-async", ...ALICE },
    body: JSON.stringify(input),
  });
  expect(started.status).toBe(202);
  return started.headers.get("location") as string;
};

describe.skipIf(!up)("a replica killed mid-task (two quiver serve replicas on Redis)", () => {
  it("B takes over A's Perplexity task and completes it; A's ESMFold fold and tasky task, with no resume point, fail, saying why", async () => {
    const [a, b] = replicas as [ServeProcess, ServeProcess];
    agent.settings.polls = Number.POSITIVE_INFINITY;
    const research = await startTask(a, "perplexity_deep_research", { query: QUERY });
    const slow = await startTask(a, "tasky_slow", { label: "killed-with-a" });
    const fold = await startTask(a, "alphafold_predict_structure", { sequence: NEW_SEQUENCE });
    // Waits of 30 s: three tasks start on a replica of a machine that may be running other suites.
    await eventually(() => hold.held.has("killed-with-a"), 30_000);
    // ESMFold's request (POST /foldSequence/v1/pdb/, no label) is held: the fold is under way on A.
    await eventually(() => hold.held.has(""), 30_000);
    // A has submitted and polled: the run's id is the task's resume point.
    await eventually(() => [...agent.runs.values()].some((r) => r.status === "in_progress"), 30_000);
    const [run] = agent.runs.values();
    if (!run) throw new Error("no Perplexity run");

    a.child.kill("SIGKILL");
    await a.exited;
    const pollsBeforeTakeover = run.polls;
    agent.settings.polls = pollsBeforeTakeover + 3;

    // Once A's lease runs out, B (its sweep, or this read) claims the task and polls the same run.
    await eventually(
      async () => (await fetch(new URL(research, b.url), { headers: ALICE })).status === 200,
      20_000,
    );
    const done = await fetch(new URL(research, b.url), { headers: ALICE });
    expect(done.headers.get("x-quiver-task-status")).toBe("completed");
    expect(await done.json()).toMatchObject({ status: "success", data: { preset: "medium" } });
    expect(agent.runs.size).toBe(1);
    expect(perplexity.requestsTo("POST", "/v1/agent")).toHaveLength(1);
    expect(run.polls).toBeGreaterThan(pollsBeforeTakeover);
    expect(run.status).toBe("completed");
    expect(agent.cancels).toEqual([]);

    for (const location of [fold, slow]) {
      const failed = await fetch(new URL(location, b.url), { headers: ALICE });
      expect(failed.status).toBe(410);
      expect(failed.headers.get("x-quiver-task-status")).toBe("failed");
      expect(await failed.text()).toContain(
        "the replica running it stopped before it finished (its lease ran out); call the tool again",
      );
    }
  }, 120_000);
});
