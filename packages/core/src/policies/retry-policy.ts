import { Duration, Effect, Schedule } from "effect";
import { ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/**
 * Retries retryable failures with exponential backoff and jitter, never sooner than the upstream's
 * Retry-After, and never past the policy's total time.
 *
 * Built once per tool. The first attempt runs bare: `Effect.retry` is entered only after it failed,
 * and is handed that failure first, so the schedule sees exactly the inputs (and measures elapsed
 * time from the same first failure) as `Effect.retry` around the whole call would, while a call that
 * succeeds at once pays for one `catch` frame instead of a schedule driver.
 */
export const withRetry = (retry: ResolvedPolicy["retry"]) => {
  if (!retry) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
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
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    Effect.catch(self, (first) => {
      if (!options.while(first)) return Effect.fail(first);
      let replayed = false;
      const again = Effect.suspend(() => {
        if (replayed) return self;
        replayed = true;
        return Effect.fail(first);
      });
      return Effect.retry(again, options);
    });
};
