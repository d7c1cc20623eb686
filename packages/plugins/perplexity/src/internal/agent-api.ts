import { fail, type ToolContext, ToolFailure } from "@quiver/core";
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import { z } from "zod";
import type { PerplexityConfig } from "../config.js";
import { keyed, type PerplexityContext, postJson } from "./perplexity-api.js";
import { RawResultSchema } from "./web-results.js";

// Perplexity's Agent API in background mode, as published:
// - docs.perplexity.ai/docs/agent-api/background-mode: submit `POST /v1/agent` with `background: true`,
//   store the response id, poll until the status is terminal (`completed`, `failed`, `cancelled`;
//   `queued` and `in_progress` are not); the run continues server-side if the client disconnects.
// - docs.perplexity.ai/api-reference/agent-cancel-post: `POST /v1/agent/{id}/cancel` answers 200
//   `{ response_id, status: "cancelling" }`; the run stops shortly after (poll `GET /v1/agent/{id}`);
//   a run that already ended answers 400, an unknown or another account's id 404.
// - Types: perplexityai/perplexity-node `src/generated/api.ts` (commit 1110dc1a…, 30 Jul 2026):
//   `ResponsesRequestInput` (`background`, `input`, `preset`, …), `ResponsesResponseOutput`
//   (`id`, `model`, `status`: `StatusOutput`, `output`, `error`, `usage`), `ResponseCancelResponse`.
// - `sonar-deep-research` maps to the preset `medium` (Perplexity's Sonar → Agent API migration guide).

/** The preset Perplexity names as the successor of `sonar-deep-research`. */
export const DEEP_RESEARCH_PRESET = "medium";

/** Statuses of a run still going: `cancelling` is what a cancel acknowledges until the run stops. */
const RUNNING_STATUSES = new Set(["queued", "in_progress", "cancelling"]);

/** One `OutputItemOutput`: the `message` and `search_results` items are read, the others kept opaque. */
const OutputItemSchema = z.looseObject({
  type: z.string(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().nullish() })).optional(),
  results: z.array(RawResultSchema.extend({ id: z.number().optional() })).optional(),
});

/** `ResponsesResponseOutput`, the fields this plugin reads (the live envelope carries more). */
const AgentResponseSchema = z.looseObject({
  id: z.string().min(1),
  model: z.string().nullish(),
  status: z.string(),
  output: z.array(OutputItemSchema).default([]),
  error: z.object({ message: z.string() }).nullish(),
  usage: z.looseObject({ cost: z.looseObject({ total_cost: z.number().optional() }).nullish() }).nullish(),
});

/** A background response as Perplexity answers it. */
export type AgentResponse = z.output<typeof AgentResponseSchema>;

/**
 * Submits a background research run (`POST /v1/agent`, `background: true`, preset `medium`). Paid:
 * the caller never repeats it; a refusal (429 at the account's limit, 401) is the call's answer.
 */
export const submitResearch = (ctx: PerplexityContext, input: string): Promise<AgentResponse> =>
  postJson(ctx, "/v1/agent", { preset: DEEP_RESEARCH_PRESET, input, background: true }, AgentResponseSchema);

/** Retries of one poll that failed transiently (a network error, a timeout, 429, 5xx). */
const POLL_RETRIES = 5;
/** The first wait before a poll is retried when Perplexity gives no Retry-After; it doubles. */
const POLL_RETRY_BASE_MS = 500;

/**
 * Polls a background response (`GET /v1/agent/{id}`) every `config.researchPollMs` until its status
 * is no longer running, reporting each poll as progress; a poll that fails transiently is retried
 * (after its Retry-After, else a doubling backoff, up to {@link POLL_RETRIES} times). The waits are
 * Effect's on the catalog's clock, and the whole loop stops when the call's signal aborts. Answers
 * the final response.
 */
export const pollResearch = (ctx: ToolContext<PerplexityConfig>, first: AgentResponse) => {
  const started = ctx.clock.currentTimeMillisUnsafe();
  const retry = Schedule.exponential(POLL_RETRY_BASE_MS).pipe(
    Schedule.modifyDelay(({ duration, input }) =>
      Effect.succeed(
        (ToolFailure.isInstance(input) ? input.retryAfterMs : undefined) ?? Duration.toMillis(duration),
      ),
    ),
    Schedule.upTo({ times: POLL_RETRIES }),
  );
  const url = `/v1/agent/${encodeURIComponent(first.id)}`;
  const poll = { ...keyed(ctx.config), url, route: "/v1/agent/{id}", schema: AgentResponseSchema };
  const get = (signal: AbortSignal) => ctx.http.json({ ...poll, signal });
  const pollOnce = Effect.tryPromise({ try: get, catch: (error) => error }).pipe(
    // Only the polls are retried, never the paid submit, and only when the failure is transient.
    Effect.retry({ schedule: retry, while: (error) => ToolFailure.isInstance(error) && error.isRetryable }),
  );
  const loop = (response: AgentResponse, polls: number): Effect.Effect<AgentResponse, unknown> => {
    if (!RUNNING_STATUSES.has(response.status)) return Effect.succeed(response);
    const seconds = Math.round((ctx.clock.currentTimeMillisUnsafe() - started) / 1000);
    ctx.progress({ progress: polls, message: `Perplexity research ${response.status} (${seconds} s)` });
    return Effect.sleep(ctx.config.researchPollMs).pipe(
      Effect.andThen(pollOnce),
      Effect.flatMap((next) => loop(next, polls + 1)),
    );
  };
  const run = loop(first, 0).pipe(Effect.provideService(Clock.Clock, ctx.clock));
  return Effect.runPromise(run, { signal: ctx.signal }).catch((error: unknown) => {
    if (ctx.signal.aborted || ToolFailure.isInstance(error)) throw error;
    throw fail.upstream(`Polling Perplexity's research ${first.id} failed: ${String(error)}`, {
      cause: error,
    });
  });
};

/**
 * Asks Perplexity to stop a background run (`POST /v1/agent/{id}/cancel`), once, with its own short
 * time limit (the call's signal has already aborted). A run that already ended (400) or is gone (404)
 * needs no cancel; any other failure is answered as `false`, never thrown: cancelling is best effort.
 */
export const cancelResearch = (ctx: PerplexityContext, id: string): Promise<boolean> => {
  const url = `/v1/agent/${encodeURIComponent(id)}/cancel`;
  const cancel = { ...keyed(ctx.config), method: "POST", url, route: "/v1/agent/{id}/cancel" } as const;
  return ctx.http.request({ ...cancel, acceptStatus: [400, 404], signal: AbortSignal.timeout(10_000) }).then(
    ({ status }) => status === 200,
    (error: unknown) => (ToolFailure.isInstance(error) ? false : Promise.reject(error)),
  );
};
