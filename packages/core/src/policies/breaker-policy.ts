import { Duration, Effect, Exit, Scope } from "effect";
import { CircuitBreaker } from "effect/persistence";
import { fail, ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

const UPSTREAM_HEALTH: ReadonlySet<string> = new Set(["unavailable", "timeout", "upstream"]);

/** Builds the breaker for one key (effect/persistence CircuitBreaker over the runtime's store). */
export const makeBreaker = (policy: NonNullable<ResolvedPolicy["breaker"]>, scope: Scope.Scope) =>
  CircuitBreaker.make({
    tripPolicy: CircuitBreaker.consecutive(policy.failures),
    openDuration: Duration.millis(policy.openForMs),
  }).pipe(Scope.provide(scope));

/**
 * Runs a call through the circuit for its key. Only failures that say the upstream is unhealthy
 * (unavailable, timeout, upstream) count; an open circuit answers `unavailable` at once.
 */
export const withBreaker =
  (breaker: CircuitBreaker.CircuitBreaker | undefined, key: string, tool: string) =>
  <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> => {
    if (!breaker) return self;
    return breaker
      .execute(self, {
        key,
        classify: (exit: Exit.Exit<A, ToolFailure>) => {
          if (Exit.isSuccess(exit)) return CircuitBreaker.success;
          const failure = Exit.findErrorOption(exit);
          if (failure._tag === "Some" && !UPSTREAM_HEALTH.has(failure.value.kind))
            return CircuitBreaker.success;
          return CircuitBreaker.failure();
        },
      })
      .pipe(
        Effect.catchIf(
          (e): e is CircuitBreaker.CircuitBreakerError => !ToolFailure.isInstance(e),
          (e) => {
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
          },
        ),
      );
  };
