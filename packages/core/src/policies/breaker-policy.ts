import { Duration, Effect, Exit, Scope } from "effect";
import { CircuitBreaker } from "effect/persistence";
import { UPSTREAM_FAILURE_KINDS } from "../error-kinds.js";
import { fail, ToolFailure } from "../errors.js";
import { type CircuitState, LocalBreaker } from "./local-breaker.js";
import type { PolicyClock } from "./policy-clock.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

const UPSTREAM_HEALTH: ReadonlySet<string> = UPSTREAM_FAILURE_KINDS;

/** One circuit, as the runtime uses it: guard a call, read the state for `stats()`. */
export interface Breaker {
  /** Runs `self` through the circuit; a refused call fails with `unavailable` and the wait. */
  readonly guard: <A, R>(
    self: Effect.Effect<A, ToolFailure, R>,
    tool: string,
  ) => Effect.Effect<A, ToolFailure, R>;
  /** The circuit's state now, or undefined when the store cannot tell. */
  readonly state: () => Promise<CircuitState | undefined>;
}

/** Only failures that say the upstream is unhealthy count against the circuit; an interruption is neither. */
const healthOf = (exit: Exit.Exit<unknown, ToolFailure>): boolean | undefined => {
  if (Exit.isSuccess(exit)) return true;
  const failure = Exit.findErrorOption(exit);
  if (failure._tag === "Some") return !UPSTREAM_HEALTH.has(failure.value.kind);
  return Exit.hasInterrupts(exit) ? undefined : false;
};

const openFailure = (tool: string, retryAfterMs: number) =>
  fail.unavailable(
    `${tool} is paused after repeated upstream failures; it will be tried again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    { retryAfterMs },
  );
const halfOpenFailure = (tool: string) =>
  fail.unavailable(`${tool} is being probed after failures; try again shortly.`, { retryAfterMs: 1000 });

/** A circuit in this process (the default, in-memory stores): a closed circuit costs a field read. */
export const localBreaker = (policy: NonNullable<ResolvedPolicy["breaker"]>, clock: PolicyClock): Breaker => {
  const circuit = new LocalBreaker(policy.failures, policy.openForMs, clock);
  const record = (exit: Exit.Exit<unknown, ToolFailure>) => Effect.sync(() => circuit.record(healthOf(exit)));
  return {
    guard: (self, tool) =>
      Effect.suspend(() => {
        const refusal = circuit.admit();
        if (refusal === undefined) return Effect.onExit(self, record);
        return Effect.fail(
          refusal._tag === "CircuitOpen" ? openFailure(tool, refusal.retryAfterMs) : halfOpenFailure(tool),
        );
      }),
    state: async () => circuit.state,
  };
};

/**
 * A circuit in effect/persistence's CircuitBreaker over the runtime's store, for stores shared
 * between host replicas (Redis): a circuit opened through one replica is open in all of them.
 */
export const storeBreaker = (
  policy: NonNullable<ResolvedPolicy["breaker"]>,
  scope: Scope.Scope,
  run: <A, E>(effect: Effect.Effect<A, E, CircuitBreaker.CircuitBreakerStore>) => A,
  runPromise: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>,
): Breaker => {
  const breaker = run(
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
    guard: (self, tool) =>
      breaker.execute(self, options).pipe(
        Effect.catchIf(isBreakerError, (e) => {
          const reason = e.reason;
          if (reason._tag === "CircuitOpen")
            return Effect.fail(openFailure(tool, Duration.toMillis(reason.retryAfter)));
          if (reason._tag === "CircuitHalfOpen") return Effect.fail(halfOpenFailure(tool));
          return Effect.fail(
            fail.unavailable(`${tool}: the circuit breaker's store failed: ${reason.message}`, {
              retryable: true,
            }),
          );
        }),
      ),
    state: () =>
      runPromise(
        Effect.orElseSucceed(
          Effect.map(breaker.state(policy.key), (s) => s._tag as CircuitState),
          () => undefined,
        ),
      ),
  };
};

/** Runs a call through its tool's circuit, if it has one. Built once per tool. */
export const withBreaker = (breaker: Breaker | undefined, tool: string) => {
  if (!breaker) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    breaker.guard(self, tool);
};
