import { Duration, Effect, Exit, Scope } from "effect";
import { CircuitBreaker } from "effect/persistence";
import { UPSTREAM_FAILURE_KINDS } from "../error-kinds.js";
import { fail, ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

const UPSTREAM_HEALTH: ReadonlySet<string> = UPSTREAM_FAILURE_KINDS;

/** Builds the breaker for one key (effect/persistence CircuitBreaker over the runtime's store). */
export const makeBreaker = (policy: NonNullable<ResolvedPolicy["breaker"]>, scope: Scope.Scope) =>
  CircuitBreaker.make({
    tripPolicy: CircuitBreaker.consecutive(policy.failures),
    openDuration: Duration.millis(policy.openForMs),
  }).pipe(Scope.provide(scope));

/** Only failures that say the upstream is unhealthy count against the circuit. */
const classify = (exit: Exit.Exit<unknown, ToolFailure>) => {
  if (Exit.isSuccess(exit)) return CircuitBreaker.success;
  const failure = Exit.findErrorOption(exit);
  if (failure._tag === "Some" && !UPSTREAM_HEALTH.has(failure.value.kind)) return CircuitBreaker.success;
  return CircuitBreaker.failure();
};

const isBreakerError = (e: unknown): e is CircuitBreaker.CircuitBreakerError => !ToolFailure.isInstance(e);

/**
 * Runs a call through the circuit for its key. Only failures that say the upstream is unhealthy
 * (unavailable, timeout, upstream) count; an open circuit answers `unavailable` at once.
 * Built once per tool: the options and handlers are shared by every call.
 */
export const withBreaker = (
  breaker: CircuitBreaker.CircuitBreaker | undefined,
  key: string,
  tool: string,
) => {
  if (!breaker) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  const options = { key, classify };
  const onBreakerError = (e: CircuitBreaker.CircuitBreakerError) => {
    const reason = e.reason;
    if (reason._tag === "CircuitOpen") {
      const retryAfterMs = Duration.toMillis(reason.retryAfter);
      return Effect.fail(
        fail.unavailable(
          `${tool} is paused after repeated upstream failures; it will be tried again in ${Math.ceil(retryAfterMs / 1000)} s.`,
          { retryAfterMs },
        ),
      );
    }
    if (reason._tag === "CircuitHalfOpen") {
      return Effect.fail(
        fail.unavailable(`${tool} is being probed after failures; try again shortly.`, {
          retryAfterMs: 1000,
        }),
      );
    }
    return Effect.fail(fail.internal(`${tool}: circuit breaker store failed: ${reason.message}`));
  };
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    breaker.execute(self, options).pipe(Effect.catchIf(isBreakerError, onBreakerError));
};
