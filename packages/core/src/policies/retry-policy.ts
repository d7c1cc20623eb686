import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import { ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/** A tool's retries, built once: Effect's `Schedule` and the test of whether a failure is retried. */
export interface RetryPlan {
  readonly schedule: Schedule.Schedule<unknown, ToolFailure>;
  /** Whether another try may succeed after this failure. */
  readonly while: (failure: ToolFailure) => boolean;
}

/**
 * The retry policy's plan, or undefined without retries: exponential backoff with jitter (Effect's
 * Schedule), never sooner than the upstream's Retry-After, never past the policy's total time, and
 * only while the failure says another try may succeed.
 */
export const retryPlan = (retry: ResolvedPolicy["retry"]): RetryPlan | undefined => {
  if (!retry) return undefined;
  return {
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
    ) as Schedule.Schedule<unknown, ToolFailure>,
    while: (failure) => failure.isRetryable && (failure.retryAfterMs ?? 0) <= retry.maxElapsedMs,
  };
};

/**
 * The retry step after a first attempt failed with `first`: the retries on the plan's Schedule, or
 * `first` again when it is not retried. Only a failure gets here (the first attempt runs on its own,
 * so a call that succeeds at once starts no schedule); `Effect.retry` must see that failure as its
 * first input (for the Retry-After and the elapsed time), so it is handed an effect that fails with
 * it once, then attempts.
 */
export const retryAfter = <A>(
  plan: RetryPlan,
  first: ToolFailure,
  attempt: Effect.Effect<A, ToolFailure>,
): Effect.Effect<A, ToolFailure> => {
  if (!plan.while(first)) return Effect.fail(first);
  let replayed = false;
  const replayingFirst = Effect.suspend(() => {
    if (replayed) return attempt;
    replayed = true;
    return Effect.fail(first);
  });
  return Effect.retry(replayingFirst, { schedule: plan.schedule, while: plan.while });
};
