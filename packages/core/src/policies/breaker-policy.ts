import type * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { UPSTREAM_FAILURE_KINDS } from "../error-kinds.js";
import { fail, type ToolFailure } from "../errors.js";
import type { CallStep } from "./call-step.js";

const UPSTREAM_HEALTH: ReadonlySet<string> = UPSTREAM_FAILURE_KINDS;

/** A circuit's state, as effect/persistence's CircuitBreaker names it. */
export type CircuitState = "Closed" | "Open" | "HalfOpen";

/** One circuit, as the runtime uses it: guard a call, read the state for `stats()`. */
export interface Breaker {
  /**
   * Runs the call (`run` makes its Effect) through the circuit; a refused call fails with
   * `unavailable` and the wait.
   */
  readonly guard: <A>(
    run: () => Effect.Effect<A, ToolFailure>,
    tool: string,
  ) => Effect.Effect<A, ToolFailure>;
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
  if (failure._tag === "Some") return !UPSTREAM_HEALTH.has(failure.value.kind);
  return Exit.hasInterrupts(exit) ? undefined : false;
};

/** The failure of a call refused by an open circuit. */
export const openFailure = (tool: string, retryAfterMs: number) =>
  fail.unavailable(
    `${tool} is paused after repeated upstream failures; it will be tried again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    { retryAfterMs },
  );

/** The failure of a call refused while a half-open circuit's probe runs. */
export const halfOpenFailure = (tool: string) =>
  fail.unavailable(`${tool} is being probed after failures; try again shortly.`, { retryAfterMs: 1000 });

/** The failure of a call whose circuit's store could not answer. */
export const storeFailure = (tool: string, message: string) =>
  fail.unavailable(`${tool}: the circuit breaker's store failed: ${message}`, { retryable: true });

/** Runs a call through its tool's circuit, if it has one. Built once per tool. */
export const withBreaker = <S>(breaker: Breaker | undefined, tool: string) => {
  if (!breaker) return <A>(next: CallStep<S, A>) => next;
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) =>
      breaker.guard(() => next(call), tool);
};
