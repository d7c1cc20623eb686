import type * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as CircuitBreaker from "effect/persistence/CircuitBreaker";
import * as Scope from "effect/Scope";
import { UPSTREAM_FAILURE_KINDS } from "../error-kinds.js";
import { fail, ToolFailure } from "../errors.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

/** A circuit's state, as effect/persistence's CircuitBreaker names it. */
export type CircuitState = "Closed" | "Open" | "HalfOpen";

/** One circuit, as the runtime uses it: guard a call, read the state for `stats()`. */
export interface Breaker {
  /** The call through the circuit; a refused call fails with `unavailable` and the wait. */
  readonly guard: <A>(call: Effect.Effect<A, ToolFailure>, tool: string) => Effect.Effect<A, ToolFailure>;
  /** The circuit's state now, or undefined when the store cannot tell. */
  readonly state: () => Promise<CircuitState | undefined>;
}

/**
 * How a call bears on its upstream's health: a success or a failure that is not the upstream's
 * (a bad argument, a refusal) is healthy, an upstream failure is not, an interruption is neither.
 */
export const healthOf = (exit: Exit.Exit<unknown, ToolFailure>): boolean | undefined => {
  if (Exit.isSuccess(exit)) return true;
  const failure = Exit.findErrorOption(exit);
  if (failure._tag === "Some") return !UPSTREAM_FAILURE_KINDS.has(failure.value.kind);
  return Exit.hasInterrupts(exit) ? undefined : false;
};

const classify = (exit: Exit.Exit<unknown, ToolFailure>) =>
  healthOf(exit) === false ? CircuitBreaker.failure() : CircuitBreaker.success;

/** A refusal of the circuit (open, half-open, store down) as the tool's failure. */
const refusal = (tool: string, error: CircuitBreaker.CircuitBreakerError): ToolFailure => {
  const reason = error.reason;
  if (reason._tag === "CircuitOpen") {
    const retryAfterMs = Duration.toMillis(reason.retryAfter);
    return fail.unavailable(
      `${tool} is paused after repeated upstream failures; it will be tried again in ${Math.ceil(retryAfterMs / 1000)} s.`,
      { retryAfterMs },
    );
  }
  if (reason._tag === "CircuitHalfOpen")
    return fail.unavailable(`${tool} is being probed after failures; try again shortly.`, {
      retryAfterMs: 1000,
    });
  return fail.unavailable(`${tool}: the circuit breaker's store failed: ${reason.message}`, {
    retryable: true,
  });
};

const isBreakerError = (e: unknown): e is CircuitBreaker.CircuitBreakerError => !ToolFailure.isInstance(e);

/**
 * The breaker step: a circuit in effect/persistence's CircuitBreaker over the runtime's store (with
 * a shared store, a circuit opened through one replica is open in all of them). Made once per key
 * and settings, in the runtime's context; `scope` closes it with the runtime.
 */
export const makeBreaker = (
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
  const options = { key: policy.key, classify };
  return {
    guard: (call, tool) =>
      breaker
        .execute(call, options)
        .pipe(Effect.catchIf(isBreakerError, (e) => Effect.fail(refusal(tool, e)))),
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
