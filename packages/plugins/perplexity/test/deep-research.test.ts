import type { ToolTask } from "@quiver/core";
import { startEmulator, usePluginOnEmulator } from "@quiver/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";
import { AGENT_COMPLETED, type AgentUpstream } from "./agent-upstream.js";
import { routePerplexity } from "./perplexity-upstream.js";

// perplexity_deep_research against the emulated Agent API in background mode (agent-upstream.ts):
// one paid submit, polls until the run ends, the upstream's own cancel when the call is abandoned.
const KEY = "pplx-test-7f3a9c2e1b4d6f8a";
const TOOL = "perplexity_deep_research";
const QUERY = "Find the official TypeScript website and describe TypeScript in one sentence with a citation.";
const { up, catalog: setup } = usePluginOnEmulator({
  plugin: createPerplexityPlugin,
  start: () => startEmulator(),
  catalog: { env: { PERPLEXITY_API_KEY: KEY } },
});
let agent: AgentUpstream;
beforeEach(() => {
  up.reset();
  agent = routePerplexity(up, KEY);
});
const catalog = () => setup({ researchPollMs: 10 });
const session = { session: { id: "s1", principal: "alice" } };
const SUBMIT = /^\/v1\/agent$/;
const POLL = /^\/v1\/agent\/[^/]+$/;

/** Resolves once `predicate` holds (a wait, not a timing assertion). */
const eventually = async (predicate: () => boolean, ms = 5_000) => {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error("the condition never held");
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** A `ctx.task` as a task runner hands it over, recording the points stored. */
const taskOf = (resumeFrom?: Record<string, unknown>, handedOver = false) => {
  const points: Array<Readonly<Record<string, unknown>>> = [];
  const task: ToolTask = {
    id: "t1",
    ...(resumeFrom ? { resumeFrom } : {}),
    resume: async (p) => {
      points.push(p);
    },
    handedOver: () => handedOver,
  };
  return { task, points };
};

describe("perplexity_deep_research (Agent API, background mode)", () => {
  it("submits once (preset medium, background), polls to completed with progress, and reports", async () => {
    const progress: unknown[] = [];
    const r = await catalog().call(
      TOOL,
      { query: QUERY },
      { ...session, onProgress: (p) => progress.push(p) },
    );
    expect(r.status, r.message).toBe("success");
    expect(up.requestsTo("POST", SUBMIT).map((q) => q.json)).toEqual([
      { preset: "medium", input: QUERY, background: true },
    ]);
    expect(up.requestsTo("POST", SUBMIT)[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(up.requestsTo("GET", POLL)).toHaveLength(2);
    expect(progress).toEqual([
      expect.objectContaining({ progress: 0, message: expect.stringMatching(/^Perplexity research queued/) }),
      expect.objectContaining({
        progress: 1,
        message: expect.stringMatching(/^Perplexity research in_progress/),
      }),
    ]);
    const [search, message] = AGENT_COMPLETED.output;
    expect(r.data).toEqual({
      report: message.content[0].text,
      sources: [
        {
          n: 1,
          title: search.results[0].title,
          url: search.results[0].url,
          date: search.results[0].date,
          snippet: search.results[0].snippet,
        },
      ],
      model: AGENT_COMPLETED.model,
      preset: "medium",
      cost_usd: AGENT_COMPLETED.usage.cost.total_cost,
    });
    expect(r.message).toBe("Perplexity's research (preset medium) wrote a report with 1 source.");
  });

  it("retries a poll that failed transiently, never the submit", async () => {
    up.fault("GET", POLL, { kind: "status", status: 503 }, { times: 2 });
    const r = await catalog().call(TOOL, { query: QUERY }, session);
    expect(r.status, r.message).toBe("success");
    expect(up.requestsTo("POST", SUBMIT)).toHaveLength(1);
    expect(up.requestsTo("GET", POLL)).toHaveLength(4);

    up.fault("POST", SUBMIT, { kind: "status", status: 503 }, { times: 1 });
    const refused = await catalog().call(TOOL, { query: `${QUERY} (2)` }, session);
    expect(refused.status).toBe("unavailable");
    expect(up.requestsTo("POST", SUBMIT)).toHaveLength(2);
    expect(refused.metadata.attempts).toBe(1);
  });

  it("stores the response id as the task's resume point, and a takeover polls it instead of submitting", async () => {
    const first = taskOf();
    const r = await catalog().call(TOOL, { query: QUERY }, { ...session, task: first.task });
    expect(r.status, r.message).toBe("success");
    const [run] = agent.runs.values();
    expect(first.points).toEqual([{ response_id: run?.id }]);

    agent.settings.polls = 3;
    const stale = { ...run, polls: 0, status: "in_progress" } as NonNullable<typeof run>;
    agent.runs.set(stale.id, stale);
    const takeover = taskOf({ response_id: stale.id });
    const resumed = await catalog().call(TOOL, { query: QUERY }, { ...session, task: takeover.task });
    expect(resumed.status, resumed.message).toBe("success");
    expect(resumed.data).toEqual(r.data);
    expect(up.requestsTo("POST", SUBMIT)).toHaveLength(1);
    expect(takeover.points).toEqual([]);
  });

  it("a cancelled call asks Perplexity to stop the run (POST /v1/agent/{id}/cancel)", async () => {
    agent.settings.polls = Number.POSITIVE_INFINITY;
    const stop = new AbortController();
    const call = catalog().call(TOOL, { query: QUERY }, { ...session, signal: stop.signal });
    await eventually(() => up.requestsTo("GET", POLL).length >= 2);
    stop.abort();
    expect((await call).status).not.toBe("success");
    const [run] = agent.runs.values();
    await eventually(() => agent.cancels.length === 1);
    expect(agent.cancels).toEqual([run?.id]);
    expect(run?.status).toBe("cancelling");
  });

  it("a run handed over to another replica is left running when its signal aborts", async () => {
    agent.settings.polls = Number.POSITIVE_INFINITY;
    const stop = new AbortController();
    const { task } = taskOf(undefined, true);
    const call = catalog().call(TOOL, { query: QUERY }, { ...session, signal: stop.signal, task });
    await eventually(() => up.requestsTo("GET", POLL).length >= 1);
    stop.abort();
    await call;
    await new Promise((r) => setTimeout(r, 50));
    expect(agent.cancels).toEqual([]);
  });

  it("a run Perplexity failed is the call's upstream error; a bad key is access_denied", async () => {
    const r0 = catalog();
    agent.settings.polls = Number.POSITIVE_INFINITY;
    const call = r0.call(TOOL, { query: QUERY }, session);
    await eventually(() => agent.runs.size === 1);
    const [run] = agent.runs.values();
    if (run) run.status = "failed";
    const failed = await call;
    expect(failed.status).toBe("error");
    expect(failed.error?.kind).toBe("upstream");
    expect(failed.message).toContain(`Perplexity's research ${run?.id} ended failed: the run failed.`);

    const denied = await setup({ researchPollMs: 10, apiKey: "pplx-wrong" }).call(
      TOOL,
      { query: QUERY },
      session,
    );
    expect(denied.error?.kind).toBe("access_denied");
    expect(agent.runs.size).toBe(1);
  });

  it("keeps to 5 submits a minute: the sixth is refused before it reaches Perplexity", async () => {
    const c = catalog();
    for (let i = 0; i < 5; i++)
      expect((await c.call(TOOL, { query: `${QUERY} ${i}` }, session)).status).toBe("success");
    const sixth = await c.call(TOOL, { query: `${QUERY} 5` }, session);
    expect(sixth.status).toBe("error");
    expect(sixth.error?.kind).toBe("rate_limited");
    expect(sixth.error?.retryAfterMs).toBeGreaterThan(0);
    expect(up.requestsTo("POST", SUBMIT)).toHaveLength(5);
  });
});
