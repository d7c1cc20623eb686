// Loaded only when `CatalogOptions.stores` are given (a dynamic import in create-catalog):
// effect/persistence brings Schema, Stream and Channel, which a host on the in-memory defaults never needs.
import * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as CircuitBreaker from "effect/persistence/CircuitBreaker";
import * as RateLimiter from "effect/persistence/RateLimiter";
import * as Scope from "effect/Scope";
import { ToolFailure } from "../errors.js";
import { type Breaker, halfOpenFailure, healthOf, openFailure, storeFailure } from "./breaker-policy.js";
import type { CircuitState } from "./local-breaker.js";
import { overLimit, type RateGate, storeDown } from "./rate-limit-policy.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/** The runtime's services over shared stores: the RateLimiter, on the stores given. */
export const storeLayer = (
  stores: Layer.Layer<RateLimiter.RateLimiterStore | CircuitBreaker.CircuitBreakerStore>,
) => RateLimiter.layer.pipe(Layer.provideMerge(stores));

/** Rate limits in effect's RateLimiter over the runtime's store (shared between replicas). */
export const storeRateGate = (context: Context.Context<never>): RateGate => {
  const limiter = Context.get(context as Context.Context<RateLimiter.RateLimiter>, RateLimiter.RateLimiter);
  return {
    // The store keeps its own time: `at` is this process's clock.
    take: (key, policy, tool) =>
      limiter
        .consume({ key, limit: policy.limit, window: policy.windowMs, onExceeded: policy.onExceeded })
        .pipe(
          Effect.flatMap((result) =>
            result.delay && Duration.toMillis(result.delay) > 0 ? Effect.sleep(result.delay) : Effect.void,
          ),
          Effect.catch((error: RateLimiter.RateLimiterError) => {
            const reason = error.reason;
            return Effect.fail(
              reason._tag === "RateLimitExceeded"
                ? overLimit(tool, policy, Duration.toMillis(reason.retryAfter))
                : storeDown(tool, reason.message),
            );
          }),
        ),
  };
};

/**
 * A circuit in effect/persistence's CircuitBreaker over the runtime's store: a circuit opened through
 * one replica is open in all of them.
 */
export const storeBreaker = (
  policy: NonNullable<ResolvedPolicy["breaker"]>,
  scope: Scope.Scope,
  context: Context.Context<never>,
): Breaker => {
  const breaker = Effect.runSyncWith(context as Context.Context<CircuitBreaker.CircuitBreakerStore>)(
    CircuitBreaker.make({
      tripPolicy: CircuitBreaker.consecutive(policy.failures),
      openDuration: Duration.millis(policy.openForMs),
    }).pipe(Scope.provide(scope)),
  );
  const classify = (exit: Exit.Exit<unknown, ToolFailure>) =>
    healthOf(exit) === false ? CircuitBreaker.failure() : CircuitBreaker.success;
  const options = { key: policy.key, classify };
  const isBreakerError = (e: unknown): e is CircuitBreaker.CircuitBreakerError => !ToolFailure.isInstance(e);
  return {
    guard: (run, tool) =>
      breaker.execute(Effect.suspend(run), options).pipe(
        Effect.catchIf(isBreakerError, (e) => {
          const reason = e.reason;
          if (reason._tag === "CircuitOpen")
            return Effect.fail(openFailure(tool, Duration.toMillis(reason.retryAfter)));
          if (reason._tag === "CircuitHalfOpen") return Effect.fail(halfOpenFailure(tool));
          return Effect.fail(storeFailure(tool, reason.message));
        }),
      ),
    state: () =>
      Effect.runPromiseWith(context)(
        Effect.orElseSucceed(
          Effect.map(breaker.state(policy.key), (s) => s._tag as CircuitState),
          () => undefined,
        ),
      ),
  };
};
