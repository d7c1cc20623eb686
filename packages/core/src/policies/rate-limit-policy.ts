import * as Effect from "effect/Effect";
import { fail, type ToolFailure } from "../errors.js";
import type { CallStep } from "./call-step.js";
import { LocalRateLimiter } from "./local-rate-limiter.js";
import type { PolicyClock } from "./policy-clock.js";
import type { ResolvedRateLimit } from "./resolve-policy.js";

/** Where a tool's calls take their tokens: this process, or a store shared by replicas. */
export interface RateGate {
  /**
   * One token from `key` for `policy`, for a call that started at `at` (the clock's monotonic time; a
   * shared store keeps its own): succeeds (after the wait, in "delay" mode) or fails with
   * `rate_limited` and the wait. Called where the call runs: the local gate decides when called and
   * answers `Effect.void` when the call may go on at once.
   */
  readonly take: (
    key: string,
    policy: ResolvedRateLimit,
    tool: string,
    at: number,
  ) => Effect.Effect<void, ToolFailure>;
  /**
   * The same take as plain code, for a gate that decides in this process: the failure of a call over
   * the limit, or the wait before it may go on (0: at once). Absent on a shared store's gate.
   */
  readonly takeNow?: (
    key: string,
    policy: ResolvedRateLimit,
    tool: string,
    at: number,
  ) => ToolFailure | number;
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
  const takeNow = (
    key: string,
    policy: ResolvedRateLimit,
    tool: string,
    at: number,
  ): ToolFailure | number => {
    const decision = limiter.take(key, policy.limit, policy.windowMs, policy.onExceeded, at);
    return decision._tag === "Exceeded" ? overLimit(tool, policy, decision.retryAfterMs) : decision.delayMs;
  };
  return {
    take: (key, policy, tool, at) => {
      const taken = takeNow(key, policy, tool, at);
      if (typeof taken !== "number") return Effect.fail(taken);
      return taken > 0 ? Effect.sleep(taken) : Effect.void;
    },
    takeNow,
  };
};

/** What the rate-limit policy reads of the call it admits. */
export interface RateLimitedCall {
  /** When the call started, on the clock's monotonic time. */
  readonly startedAt: number;
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
  const take = (policy: ResolvedRateLimit, call: S) =>
    gate.take(keyOf(policy, call), policy, tool, call.startedAt);
  const only = policies.length === 1 ? policies[0] : undefined;
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) => {
      if (only) {
        const taken = take(only, call);
        // A call with room goes on in the same step (no frame for a token that did not wait).
        return taken === Effect.void
          ? next(call)
          : Effect.andThen(
              taken,
              Effect.suspend(() => next(call)),
            );
      }
      return Effect.andThen(
        Effect.forEach(policies, (policy) => take(policy, call), { discard: true }),
        Effect.suspend(() => next(call)),
      );
    };
};

/** The key a call takes its token from: the limit's, per caller when the limit is per principal. */
const limitKey =
  <S extends RateLimitedCall>() =>
  (policy: ResolvedRateLimit, call: S): string =>
    policy.perPrincipal ? `${policy.key}:${call.session.principal ?? "anonymous"}` : policy.key;

/**
 * The rate limits' check as plain code, for the direct call: takes a token from every limit in order
 * and answers the first failure, or undefined when the call may go on. Only where no take can wait
 * (a gate in this process, every limit failing when exceeded); undefined otherwise, and then the call
 * runs through `withRateLimit`. No limits: a check that always admits.
 */
export const rateLimitNow = <S extends RateLimitedCall>(
  gate: RateGate,
  policies: ReadonlyArray<ResolvedRateLimit> | undefined,
  tool: string,
): ((call: S) => ToolFailure | undefined) | undefined => {
  if (!policies || policies.length === 0) return () => undefined;
  const takeNow = gate.takeNow;
  if (!takeNow || policies.some((p) => p.onExceeded !== "fail")) return undefined;
  const keyOf = limitKey<S>();
  return (call) => {
    for (const policy of policies) {
      const taken = takeNow(keyOf(policy, call), policy, tool, call.startedAt);
      if (typeof taken !== "number") return taken;
    }
    return undefined;
  };
};
