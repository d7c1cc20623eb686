import { fail, type ToolContext, ToolFailure } from "@quiver/core";
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import type { PerplexityConfig } from "../config.js";
import { type AgentResponse, getResearch, RUNNING_STATUSES } from "./agent-api.js";

/** Retries of one poll that failed transiently (a network error, a timeout, 429, 5xx). */
const POLL_RETRIES = 5;
/** The first wait before a poll is retried when Perplexity gives no Retry-After; it doubles. */
const POLL_RETRY_BASE_MS = 500;

/** A poll failure worth trying again: only the polls are retried, never the paid submit. */
const transient = (error: unknown): error is ToolFailure =>
  ToolFailure.isInstance(error) && error.isRetryable;

/** What polling needs from the tool's context. */
export type PollContext = Pick<
  ToolContext<PerplexityConfig>,
  "http" | "config" | "signal" | "clock" | "progress"
>;

/**
 * Polls a background response every `config.researchPollMs` until its status is no longer running,
 * reporting each poll as progress; a poll that fails transiently is retried (after its Retry-After,
 * else a doubling backoff, up to {@link POLL_RETRIES} times). The waits are Effect's on the
 * catalog's clock, and the whole loop stops when the call's signal aborts. Answers the final response.
 */
export const pollResearch = (ctx: PollContext, first: AgentResponse): Promise<AgentResponse> => {
  const started = ctx.clock.currentTimeMillisUnsafe();
  const retry = Schedule.exponential(POLL_RETRY_BASE_MS).pipe(
    Schedule.modifyDelay(({ duration, input }) =>
      Effect.succeed(
        ToolFailure.isInstance(input) && input.retryAfterMs !== undefined
          ? input.retryAfterMs
          : Duration.toMillis(duration),
      ),
    ),
    Schedule.upTo({ times: POLL_RETRIES }),
  );
  const pollOnce = Effect.tryPromise({
    try: (signal) => getResearch(ctx, first.id, signal),
    catch: (error) => error,
  }).pipe(Effect.retry({ schedule: retry, while: transient }));
  const report = (response: AgentResponse, polls: number) => {
    const seconds = Math.round((ctx.clock.currentTimeMillisUnsafe() - started) / 1000);
    ctx.progress({ progress: polls, message: `Perplexity research ${response.status} (${seconds} s)` });
  };
  const loop = (response: AgentResponse, polls: number): Effect.Effect<AgentResponse, unknown> => {
    if (!RUNNING_STATUSES.has(response.status)) return Effect.succeed(response);
    report(response, polls);
    return Effect.sleep(ctx.config.researchPollMs).pipe(
      Effect.andThen(pollOnce),
      Effect.flatMap((next) => loop(next, polls + 1)),
    );
  };
  return Effect.runPromise(loop(first, 0).pipe(Effect.provideService(Clock.Clock, ctx.clock)), {
    signal: ctx.signal,
  }).catch((error: unknown) => {
    if (ctx.signal.aborted || ToolFailure.isInstance(error)) throw error;
    throw fail.upstream(`Polling Perplexity's research ${first.id} failed: ${String(error)}`, {
      cause: error,
    });
  });
};
