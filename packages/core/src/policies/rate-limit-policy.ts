import * as Effect from "effect/Effect";
import { fail, type ToolFailure } from "../errors.js";
import type { CallStep } from "./call-step.js";
import type { ResolvedRateLimit } from "./resolve-policy.js";

/** Where a tool's calls take their tokens: effect/persistence's RateLimiter on the runtime's store. */
export interface RateGate {
  /**
   * One token from `key` for `policy`: succeeds (after the wait, in "delay" mode) or fails with
   * `rate_limited` and the wait (or `unavailable` when the store cannot answer).
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

/** What the rate-limit policy reads of the call it admits. */
export interface RateLimitedCall {
  readonly session: { readonly principal?: string | undefined };
}

/**
 * Takes a token from every rate limit of the tool, in order, before the call runs. Built once per
 * tool; each call is read for the caller of a per-principal key and for the time.
 */
export const withRateLimit = <S extends RateLimitedCall>(
  gate: RateGate,
  policies: ReadonlyArray<ResolvedRateLimit> | undefined,
  tool: string,
) => {
  if (!policies || policies.length === 0) return <A>(next: CallStep<S, A>) => next;
  const keyOf = limitKey<S>();
  const take = (policy: ResolvedRateLimit, call: S) => gate.take(keyOf(policy, call), policy, tool);
  const only = policies.length === 1 ? policies[0] : undefined;
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) =>
      Effect.andThen(
        only ? take(only, call) : Effect.forEach(policies, (policy) => take(policy, call), { discard: true }),
        Effect.suspend(() => next(call)),
      );
};

/** The key a call takes its token from: the limit's, per caller when the limit is per principal. */
const limitKey =
  <S extends RateLimitedCall>() =>
  (policy: ResolvedRateLimit, call: S): string =>
    policy.perPrincipal ? `${policy.key}:${call.session.principal ?? "anonymous"}` : policy.key;
