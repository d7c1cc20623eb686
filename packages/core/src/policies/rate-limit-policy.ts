import { Duration, Effect } from "effect";
import type { RateLimiter } from "effect/persistence";
import { fail, type ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/**
 * Takes a token from the rate limiter (effect/persistence RateLimiter) before the call runs. When the
 * budget is spent the call fails with `rate_limited` and the wait, or waits when the policy says so.
 *
 * Built once per tool: an Effect is a description, so the token request for a shared key is made
 * once and run by every call; a per-principal key reads the caller through `principal`.
 */
export const withRateLimit = (
  limiter: RateLimiter.RateLimiter,
  policy: ResolvedPolicy["rateLimit"],
  tool: string,
  principal: Effect.Effect<string | undefined>,
) => {
  if (!policy) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  const onError = (error: RateLimiter.RateLimiterError) => {
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
  };
  const waitIfDelayed = (result: RateLimiter.ConsumeResult) =>
    result.delay && Duration.toMillis(result.delay) > 0 ? Effect.sleep(result.delay) : Effect.void;
  const take = (key: string): Effect.Effect<void, ToolFailure> =>
    limiter
      .consume({ key, limit: policy.limit, window: policy.windowMs, onExceeded: policy.onExceeded })
      .pipe(Effect.flatMap(waitIfDelayed), Effect.catch(onError));
  const gate = policy.perPrincipal
    ? Effect.flatMap(principal, (p) => take(`${policy.key}:${p ?? "anonymous"}`))
    : take(policy.key);
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    Effect.andThen(gate, self);
};
