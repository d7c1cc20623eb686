import { randomUUID } from "node:crypto";
import { type Emulator, type EmulatorResponse, loadJson } from "@quiver/testing";
import { invalid, problem, record, SDK_TYPES } from "./sdk-request-check.js";

// Perplexity's Agent API in background mode, emulated as published (docs.perplexity.ai: "Background
// mode", "Cancel Agent Response"; the SDK's `ResponsesRequestInput`, `ResponsesResponseOutput`,
// `ResponseCancelResponse`): `POST /v1/agent` with `background: true` answers the response at once,
// `queued`; each `GET /v1/agent/{id}` moves it on (`in_progress`, then `completed` after
// `settings.polls` polls, with the recorded output); `POST /v1/agent/{id}/cancel` answers
// `{ response_id, status: "cancelling" }` and the next poll `cancelled`, 400 for a run that already
// ended, 404 for an unknown id or another key's. `/v1/responses` is the same API (the SDK's path).

/** The recorded completed response (vercel/ai `agent-web-search.json`, preset `fast`). */
export const AGENT_COMPLETED = loadJson<Record<string, any>>(
  new URL("./fixtures/agent-web-search.json", import.meta.url),
);

/** The presets the Agent API documents (`medium` is the successor of `sonar-deep-research`). */
export const PRESETS = ["fast", "low", "medium", "high", "xhigh"];

/** One background run the emulator holds. */
export interface AgentRun {
  readonly id: string;
  readonly key: string;
  readonly body: Record<string, unknown>;
  status: string;
  polls: number;
  readonly createdAt: number;
}

/** The emulated Agent API: its runs, the cancels it received, and what the test may change. */
export interface AgentUpstream {
  readonly runs: Map<string, AgentRun>;
  /** Ids of the runs a cancel was asked for, in order: proof the upstream was told to stop. */
  readonly cancels: string[];
  /** Polls after which a run completes (default 2); `Infinity` keeps every run in progress. */
  readonly settings: { polls: number; submitsPerMinute: number };
}

const error = (status: number, type: string, message: string): EmulatorResponse => ({
  status,
  json: { error: { message, type, code: status } },
});

/** A run as `ResponsesResponseOutput`. */
const responseOf = (run: AgentRun) => {
  const base = {
    id: run.id,
    object: "response",
    created_at: Math.floor(run.createdAt / 1000),
    model: AGENT_COMPLETED.model,
    background: true,
    status: run.status,
    output: [] as unknown[],
  };
  return run.status === "completed"
    ? { ...base, output: AGENT_COMPLETED.output, usage: AGENT_COMPLETED.usage }
    : run.status === "failed"
      ? { ...base, error: { message: "the run failed", type: "internal_error" } }
      : base;
};

/** Registers the Agent API's background routes on `up`, accepting `Authorization: Bearer <key>`. */
export const routeAgent = (up: Emulator, key: string, settings: Partial<AgentUpstream["settings"]> = {}) => {
  const agent: AgentUpstream = {
    runs: new Map(),
    cancels: [],
    settings: { polls: 2, submitsPerMinute: Number.POSITIVE_INFINITY, ...settings },
  };
  const submits: number[] = [];
  const authorised = (h: string | undefined) => h === `Bearer ${key}`;
  const unauthorised = error(
    401,
    "forbidden",
    "Invalid API key: provide a valid key in the Authorization header.",
  );
  const owned = (id: string, h: string | undefined) => {
    const run = agent.runs.get(decodeURIComponent(id));
    return run && run.key === h ? run : undefined;
  };

  up.route("POST", /^\/v1\/(agent|responses)$/, (req) => {
    if (!authorised(req.headers.authorization)) return unauthorised;
    const body = record(req.json);
    if (!body) return invalid(["", "the body is not a JSON object"]);
    const found = problem(SDK_TYPES["POST /v1/agent"].request, body);
    if (found) return invalid(found);
    if (body.model === undefined && body.models === undefined && body.preset === undefined)
      return invalid(["model", "one of model, models or preset is required"]);
    if (body.preset !== undefined && !PRESETS.includes(String(body.preset)))
      return invalid(["preset", `unknown preset "${String(body.preset)}"`]);
    const now = Date.now();
    while (submits.length > 0 && (submits[0] as number) < now - 60_000) submits.shift();
    if (submits.length >= agent.settings.submitsPerMinute)
      return {
        ...error(429, "request_rate_limit_exceeded", "Rate limit exceeded: too many requests."),
        headers: { "retry-after": "60" },
      };
    submits.push(now);
    const run: AgentRun = {
      id: `resp_${randomUUID()}`,
      key: req.headers.authorization as string,
      body,
      status: body.background === true ? "queued" : "completed",
      polls: 0,
      createdAt: now,
    };
    agent.runs.set(run.id, run);
    return { json: responseOf(run) };
  });

  up.route("GET", /^\/v1\/(agent|responses)\/[^/]+$/, (req) => {
    if (!authorised(req.headers.authorization)) return unauthorised;
    const run = owned(req.path.split("/").pop() as string, req.headers.authorization);
    if (!run) return error(404, "not_found", "Response not found.");
    run.polls++;
    if (run.status === "cancelling") run.status = "cancelled";
    else if (run.status === "queued" || run.status === "in_progress")
      run.status = run.polls >= agent.settings.polls ? "completed" : "in_progress";
    return { json: responseOf(run) };
  });

  up.route("POST", /^\/v1\/(agent|responses)\/[^/]+\/cancel$/, (req) => {
    if (!authorised(req.headers.authorization)) return unauthorised;
    const run = owned(req.path.split("/").at(-2) as string, req.headers.authorization);
    if (!run) return error(404, "not_found", "Response not found.");
    if (!["queued", "in_progress", "cancelling"].includes(run.status))
      return error(400, "invalid_request", `Response ${run.id} already ended (${run.status}).`);
    agent.cancels.push(run.id);
    run.status = "cancelling";
    return { json: { response_id: run.id, status: "cancelling" } };
  });
  return agent;
};
