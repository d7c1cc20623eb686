import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import { ToolFailure } from "../errors.js";
import type { CallStep } from "./call-step.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/**
 * Retries retryable failures with exponential backoff and jitter (Effect's Schedule), never sooner
 * than the upstream's Retry-After, never past the policy's total time, and only while the failure
 * says another try may succeed (the tool's `retryPlan`). Built once per tool.
 *
 * The first attempt runs on its own, so a call that succeeds at once pays for one `catch` frame
 * instead of a schedule driver. Only its failure starts
 * `Effect.retry`, which must see that failure as its first input (for the Retry-After and the elapsed
 * time), so it is handed `replayingFirst`: an effect that fails with that failure once, then attempts.
 */
export const withRetry = <S>(plan: RetryPlan<S> | undefined) => {
  if (!plan) return <A>(next: CallStep<S, A>) => next;
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) =>
      Effect.catch(next(call), (first) =>
        plan.retries(first) ? plan.after(call, first, next) : Effect.fail(first),
      );
};

/** A tool's retry policy, in two parts: whether a first failure is retried, and the retries after it. */
export interface RetryPlan<S> {
  /** Whether another try may succeed after this first failure. */
  readonly retries: (first: ToolFailure) => boolean;
  /** The retries after the first failure (`next` makes each attempt), on the policy's Schedule. */
  readonly after: <A>(call: S, first: ToolFailure, next: CallStep<S, A>) => Effect.Effect<A, ToolFailure>;
}

/** The retry policy's plan (see `withRetry`), or undefined without retries. */
export const retryPlan = <S>(retry: ResolvedPolicy["retry"]): RetryPlan<S> | undefined => {
  if (!retry) return undefined;
  const options = {
    schedule: Schedule.exponential(retry.baseMs).pipe(
      Schedule.jittered,
      Schedule.modifyDelay(({ duration, input }) =>
        Effect.succeed(
          ToolFailure.isInstance(input) && input.retryAfterMs !== undefined
            ? Duration.max(duration, Duration.millis(input.retryAfterMs))
            : duration,
        ),
      ),
      Schedule.upTo({ times: retry.times, duration: retry.maxElapsedMs }),
    ),
    while: (failure: ToolFailure) => failure.isRetryable && (failure.retryAfterMs ?? 0) <= retry.maxElapsedMs,
  };
  return {
    retries: options.while,
    after: (call, first, next) =>
      Effect.retry(
        replayingFirst(
          first,
          Effect.suspend(() => next(call)),
        ),
        options,
      ),
  };
};

/** Fails with `first` the first time it runs, and runs `attempt` every time after. */
const replayingFirst = <A>(first: ToolFailure, attempt: Effect.Effect<A, ToolFailure>) => {
  let replayed = false;
  return Effect.suspend(() => {
    if (replayed) return attempt;
    replayed = true;
    return Effect.fail(first);
  });
};
