import * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as RateLimiter from "effect/persistence/RateLimiter";
import { fail, type ToolFailure } from "../errors.js";
import type { ResolvedRateLimit } from "./resolve-policy.js";

/**
 * The rate-limit step of a tool, built once (at its first call): every limit, taken in order before
 * the call runs, from effect/persistence's RateLimiter on the runtime's store. Limits on shared keys
 * are one Effect every call runs; a tool with a per-principal limit makes its Effect per caller.
 */
export interface RateLimitStep {
  /** The tokens of a tool whose limits are all on shared keys. */
  readonly shared: Effect.Effect<void, ToolFailure> | undefined;
  /** The tokens of a tool with a per-principal limit, for one caller. */
  readonly forCaller: ((principal: string | undefined) => Effect.Effect<void, ToolFailure>) | undefined;
}

const windowText = (ms: number) =>
  ms % 86_400_000 === 0
    ? `${ms / 86_400_000 === 1 ? "" : `${ms / 86_400_000} `}day${ms / 86_400_000 === 1 ? "" : "s"}`
    : `${ms / 1000} s`;

/** The failure of a call over its limit. */
const overLimit = (tool: string, policy: ResolvedRateLimit, retryAfterMs: number): ToolFailure =>
  fail.rateLimited(
    `${tool} is over its rate limit of ${policy.limit} calls per ${windowText(policy.windowMs)}; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
    { retryAfterMs, retryable: true },
  );

/** The failure of a call whose limit's store could not answer: the store is down, not the tool. */
const storeDown = (tool: string, message: string): ToolFailure =>
  fail.unavailable(`${tool}: the rate limiter's store failed: ${message}`, { retryable: true });

/** Builds a tool's rate-limit step on the runtime's RateLimiter; undefined without limits. */
export const rateLimitStep = (
  context: Context.Context<never>,
  policies: ReadonlyArray<ResolvedRateLimit> | undefined,
  tool: string,
): RateLimitStep | undefined => {
  if (!policies || policies.length === 0) return undefined;
  const limiter = Context.get(context as Context.Context<RateLimiter.RateLimiter>, RateLimiter.RateLimiter);
  const take = (policy: ResolvedRateLimit, key: string): Effect.Effect<void, ToolFailure> => {
    const consumed = limiter.consume({
      key,
      limit: policy.limit,
      window: policy.windowMs,
      onExceeded: policy.onExceeded,
    });
    // In "fail" mode a token never comes with a wait: only "delay" sleeps for it.
    const waited =
      policy.onExceeded === "delay"
        ? Effect.flatMap(consumed, (r) =>
            Duration.toMillis(r.delay) > 0 ? Effect.sleep(r.delay) : Effect.void,
          )
        : Effect.asVoid(consumed);
    return Effect.catch(waited, (error: RateLimiter.RateLimiterError) =>
      Effect.fail(
        error.reason._tag === "RateLimitExceeded"
          ? overLimit(tool, policy, Duration.toMillis(error.reason.retryAfter))
          : storeDown(tool, error.reason.message),
      ),
    );
  };
  const all = (principal: string | undefined) =>
    policies
      .map((p) => take(p, p.perPrincipal ? `${p.key}:${principal ?? "anonymous"}` : p.key))
      .reduce((first, next) => Effect.andThen(first, next));
  return policies.some((p) => p.perPrincipal)
    ? { shared: undefined, forCaller: all }
    : { shared: all(undefined), forCaller: undefined };
};
