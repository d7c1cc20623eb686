import { Duration, Effect } from "effect";
import type { RateLimiter } from "effect/persistence";
import { fail, type ToolFailure } from "../errors.js";
import type { ResolvedRateLimit } from "./resolve-policy.js";

/**
 * Takes a token from every rate limit of the tool (effect/persistence RateLimiter), in order, before
 * the call runs. When a budget is spent the call fails with `rate_limited` and the wait, or waits
 * when the policy says so.
 *
 * Built once per tool: an Effect is a description, so the token request for a shared key is made
 * once and run by every call; a per-principal key reads the caller through `principal`.
 */
export const withRateLimit = (
  limiter: RateLimiter.RateLimiter,
  policies: ReadonlyArray<ResolvedRateLimit> | undefined,
  tool: string,
  principal: Effect.Effect<string | undefined>,
) => {
  if (!policies || policies.length === 0) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  const gates = policies.map((policy) => gateFor(limiter, policy, tool, principal));
  const gate = gates.length === 1 ? gates[0]! : Effect.forEach(gates, (g) => g, { discard: true });
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    Effect.andThen(gate, self);
};

const windowText = (ms: number) =>
  ms % 86_400_000 === 0
    ? `${ms / 86_400_000 === 1 ? "" : `${ms / 86_400_000} `}day${ms / 86_400_000 === 1 ? "" : "s"}`
    : `${ms / 1000} s`;

const gateFor = (
  limiter: RateLimiter.RateLimiter,
  policy: ResolvedRateLimit,
  tool: string,
  principal: Effect.Effect<string | undefined>,
): Effect.Effect<void, ToolFailure> => {
  const onError = (error: RateLimiter.RateLimiterError) => {
    const reason = error.reason;
    if (reason._tag === "RateLimitExceeded") {
      const retryAfterMs = Duration.toMillis(reason.retryAfter);
      return Effect.fail(
        fail.rateLimited(
          `${tool} is over its rate limit of ${policy.limit} calls per ${windowText(policy.windowMs)}; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
          { retryAfterMs, retryable: true },
        ),
      );
    }
    return Effect.fail(
      fail.unavailable(`${tool}: the rate limiter's store failed: ${reason.message}`, { retryable: true }),
    );
  };
  const waitIfDelayed = (result: RateLimiter.ConsumeResult) =>
    result.delay && Duration.toMillis(result.delay) > 0 ? Effect.sleep(result.delay) : Effect.void;
  const take = (key: string): Effect.Effect<void, ToolFailure> =>
    limiter
      .consume({ key, limit: policy.limit, window: policy.windowMs, onExceeded: policy.onExceeded })
      .pipe(Effect.flatMap(waitIfDelayed), Effect.catch(onError));
  return policy.perPrincipal
    ? Effect.flatMap(principal, (p) => take(`${policy.key}:${p ?? "anonymous"}`))
    : take(policy.key);
};
