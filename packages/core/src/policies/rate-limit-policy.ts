import { Duration, Effect } from "effect";
import { RateLimiter } from "effect/persistence";
import { fail, type ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/**
 * Takes a token from the rate limiter (effect/persistence RateLimiter) before the call runs. When the
 * budget is spent the call fails with `rate_limited` and the wait, or waits when the policy says so.
 */
export const withRateLimit =
  (policy: ResolvedPolicy["rateLimit"], principal: string | undefined, tool: string) =>
  <A, R>(
    self: Effect.Effect<A, ToolFailure, R>,
  ): Effect.Effect<A, ToolFailure, R | RateLimiter.RateLimiter> => {
    if (!policy) return self;
    const key = policy.perPrincipal ? `${policy.key}:${principal ?? "anonymous"}` : policy.key;
    return Effect.flatMap(Effect.service(RateLimiter.RateLimiter), (limiter) =>
      limiter
        .consume({ key, limit: policy.limit, window: policy.windowMs, onExceeded: policy.onExceeded })
        .pipe(
          Effect.flatMap((result) =>
            result.delay && Duration.toMillis(result.delay) > 0 ? Effect.sleep(result.delay) : Effect.void,
          ),
          Effect.catch((error) => {
            const reason = error.reason;
            if (reason._tag === "RateLimitExceeded") {
              const retryAfterMs = Duration.toMillis(reason.retryAfter);
              return Effect.fail(
                fail.rateLimited(
                  `${tool} is over its rate limit of ${policy.limit} calls per ${policy.windowMs / 1000} s; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
                  { retryAfterMs, retryable: true },
                ),
              );
            }
            return Effect.fail(fail.internal(`${tool}: rate limiter store failed: ${reason.message}`));
          }),
          Effect.andThen(self),
        ),
    );
  };
