import { Duration, Effect, Schedule } from "effect";
import { ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/**
 * Retries retryable failures with exponential backoff and jitter, never sooner than the upstream's
 * Retry-After, and never past the policy's total time.
 */
export const withRetry =
  (retry: ResolvedPolicy["retry"]) =>
  <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> => {
    if (!retry) return self;
    const schedule = Schedule.exponential(retry.baseMs).pipe(
      Schedule.jittered,
      Schedule.modifyDelay(({ duration, input }) =>
        Effect.succeed(
          ToolFailure.isInstance(input) && input.retryAfterMs !== undefined
            ? Duration.max(duration, Duration.millis(input.retryAfterMs))
            : duration,
        ),
      ),
      Schedule.upTo({ times: retry.times, duration: retry.maxElapsedMs }),
    );
    return Effect.retry(self, {
      schedule,
      while: (failure: ToolFailure) =>
        failure.isRetryable && (failure.retryAfterMs ?? 0) <= retry.maxElapsedMs,
    });
  };
