import * as Effect from "effect/Effect";
import { fail, type ToolFailure } from "../errors.js";
import { LocalRateLimiter } from "./local-rate-limiter.js";
import type { PolicyClock } from "./policy-clock.js";
import type { ResolvedRateLimit } from "./resolve-policy.js";

/** Where a tool's calls take their tokens: this process, or a store shared by replicas. */
export interface RateGate {
  /**
   * One token from `key` for `policy`: succeeds (after the wait, in "delay" mode) or fails with
   * `rate_limited` and the wait. Evaluated on every run of the returned Effect.
   */
  readonly take: (key: string, policy: ResolvedRateLimit, tool: string) => Effect.Effect<void, ToolFailure>;
}

const windowText = (ms: number) =>
  ms % 86_400_000 === 0
    ? `${ms / 86_400_000 === 1 ? "" : `${ms / 86_400_000} `}day${ms / 86_400_000 === 1 ? "" : "s"}`
    : `${ms / 1000} s`;

/** The failure of a call over its limit. */
export const overLimit = (tool: string, policy: ResolvedRateLimit, retryAfterMs: number): ToolFailure =>
  fail.rateLimited(
    `${tool} is over its rate limit of ${policy.limit} calls per ${windowText(policy.windowMs)}; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
    { retryAfterMs, retryable: true },
  );

/** The failure of a call whose limit's store could not answer: the store is down, not the tool. */
export const storeDown = (tool: string, message: string): ToolFailure =>
  fail.unavailable(`${tool}: the rate limiter's store failed: ${message}`, { retryable: true });

/** Limits in this process (`LocalRateLimiter`). */
export const localRateGate = (clock: PolicyClock): RateGate => {
  const limiter = new LocalRateLimiter(clock);
  return {
    take: (key, policy, tool) =>
      Effect.suspend(() => {
        const decision = limiter.take(key, policy.limit, policy.windowMs, policy.onExceeded);
        if (decision._tag === "Exceeded") return Effect.fail(overLimit(tool, policy, decision.retryAfterMs));
        return decision.delayMs > 0 ? Effect.sleep(decision.delayMs) : Effect.void;
      }),
  };
};

/**
 * Takes a token from every rate limit of the tool, in order, before the call runs. Built once per
 * tool: the take for a shared key is made once; a per-principal key reads the caller via `principal`.
 */
export const withRateLimit = (
  gate: RateGate,
  policies: ReadonlyArray<ResolvedRateLimit> | undefined,
  tool: string,
  principal: Effect.Effect<string | undefined>,
) => {
  if (!policies || policies.length === 0) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  const gates = policies.map((policy) =>
    policy.perPrincipal
      ? Effect.flatMap(principal, (p) => gate.take(`${policy.key}:${p ?? "anonymous"}`, policy, tool))
      : gate.take(policy.key, policy, tool),
  );
  const all = gates.length === 1 ? gates[0]! : Effect.forEach(gates, (g) => g, { discard: true });
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    Effect.andThen(all, self);
};
