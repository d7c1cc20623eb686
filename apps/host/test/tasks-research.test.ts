import type { ToolResult } from "@quiver/core";
import { comparableEnvelope, type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentUpstream } from "../../../packages/plugins/perplexity/test/agent-upstream.js";
import { routePerplexity } from "../../../packages/plugins/perplexity/test/perplexity-upstream.js";
import { eventually, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { connectTasks, type TaskClient } from "./tasks-clients.js";

// Perplexity's deep research as an MCP task: the official @modelcontextprotocol/ext-tasks requester
// client, against `quiver serve` (a real process) over Streamable HTTP in each era, settles a
// `perplexity_deep_research` task on the Perplexity emulator (the Agent API in background mode) to
// the envelope a plain call gives, and cancels another mid-way: the emulator records the upstream cancel.
const KEY = "pplx-test-research-5c1d";
const QUERY = "Find the official TypeScript website and describe TypeScript in one sentence with a citation.";
let up: Emulator;
let agent: AgentUpstream;
let project: Project;
let serve: ServeProcess;
const open: TaskClient[] = [];

beforeAll(async () => {
  up = await startEmulator();
  agent = routePerplexity(up, KEY);
  project = makeProject({
    workspace: ["@quiver/plugin-perplexity"],
    // Four submits in a minute here; Perplexity's Tier-0 limit (the tool's 5 a minute) is not what is tested.
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        policies: { perplexity_deep_research: { rateLimit: { limit: 100, window: "1m" } } },
      }),
    },
  });
  serve = await startServe([], {
    cwd: project.dir,
    env: {
      QUIVER_TOKENS: "tok-a=alice",
      PERPLEXITY_API_KEY: KEY,
      PERPLEXITY_BASE_URL: up.url,
      PERPLEXITY_RESEARCH_POLL_MS: "50",
      QUIVER_SHUTDOWN_TIMEOUT: "1s",
    },
  });
}, 30_000);
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  await up?.close();
  project?.cleanup();
});

/** The envelope a tools/call result carries, without what differs between two calls. */
const envelopeOf = (result: unknown) =>
  comparableEnvelope((result as { structuredContent: ToolResult }).structuredContent);

describe.each(["legacy", "modern"] as const)(
  "quiver serve: perplexity_deep_research as an MCP task (%s era)",
  (era) => {
    it("settles to the envelope a plain call gives, polling Perplexity's background run", async () => {
      agent.settings.polls = 3;
      const c = await connectTasks(serve.url, "tok-a", era);
      open.push(c);
      const before = agent.runs.size;
      const execution = await c.session.callTool(
        "perplexity_deep_research",
        { query: QUERY },
        { task: { preference: "require" } },
      );
      expect(execution.kind).toBe("task");
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("completed");
      const settled = outcome.status === "completed" ? outcome.result : undefined;

      const plain = await c.client.callTool({
        name: "perplexity_deep_research",
        arguments: { query: QUERY },
      });
      expect(envelopeOf(settled)).toEqual(envelopeOf(plain));
      expect(envelopeOf(settled)).toMatchObject({ status: "success", data: { preset: "medium" } });
      // One paid submit per call, each polled to completed.
      expect(agent.runs.size - before).toBe(2);
      expect([...agent.runs.values()].slice(before).map((r) => r.status)).toEqual(["completed", "completed"]);
    });

    it("cancels a task mid-way: Perplexity's own cancel is called for its run", async () => {
      agent.settings.polls = Number.POSITIVE_INFINITY;
      const c = await connectTasks(serve.url, "tok-a", era);
      open.push(c);
      const before = new Set(agent.runs.keys());
      const execution = await c.session.callTool(
        "perplexity_deep_research",
        { query: `${QUERY} (${era}, cancelled)` },
        { task: { preference: "require" } },
      );
      const handle = execution.handle;
      if (!handle) throw new Error("no task was started");
      const fresh = () => [...agent.runs.values()].find((r) => !before.has(r.id));
      await eventually(() => fresh()?.status === "in_progress");
      const run = fresh();
      expect(await c.session.task(handle.taskId).snapshot()).toMatchObject({ status: "working" });
      await execution.cancel();
      await eventually(() => agent.cancels.includes(run?.id as string));
      expect((await execution.settle()).outcome.status).toBe("cancelled");
      expect(run?.status).toBe("cancelling");
      expect(up.requestsTo("POST", `/v1/agent/${run?.id}/cancel`)).toHaveLength(1);
    });
  },
);
