import * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as CircuitBreaker from "effect/persistence/CircuitBreaker";
import * as RateLimiter from "effect/persistence/RateLimiter";
import * as Scope from "effect/Scope";
import { ToolFailure } from "../errors.js";
import {
  type Breaker,
  type CircuitState,
  halfOpenFailure,
  healthOf,
  openFailure,
  storeFailure,
} from "./breaker-policy.js";
import { overLimit, type RateGate, storeDown } from "./rate-limit-policy.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/**
 * The runtime's policy services: the RateLimiter and the circuits' store, on the store driver's `policyStores` (shared
 * between replicas) or in this process's memory. Both read the runtime's Clock.
 */
export const storeLayer = (
  stores: Layer.Layer<RateLimiter.RateLimiterStore | CircuitBreaker.CircuitBreakerStore> | undefined,
) =>
  RateLimiter.layer.pipe(
    Layer.provideMerge(
      stores ?? Layer.mergeAll(RateLimiter.layerStoreMemory, CircuitBreaker.layerStoreMemory()),
    ),
  );

/** Rate limits in effect's RateLimiter over the runtime's store. */
export const storeRateGate = (context: Context.Context<never>): RateGate => {
  const limiter = Context.get(context as Context.Context<RateLimiter.RateLimiter>, RateLimiter.RateLimiter);
  return {
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
 * A circuit in effect/persistence's CircuitBreaker over the runtime's store: with a shared store, a
 * circuit opened through one replica is open in all of them.
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
          // A circuit past its open time reads Open in the store until a call moves it on: it is
          // HalfOpen to a reader (the next call is the probe).
          Effect.map(
            breaker.state(policy.key),
            (s): CircuitState =>
              s._tag === "Open" && Duration.toMillis(s.retryAfter) <= 0 ? "HalfOpen" : s._tag,
          ),
          () => undefined,
        ),
      ),
  };
};
