import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { UPSTREAM_FAILURE_KINDS } from "../error-kinds.js";
import { fail, type ToolFailure } from "../errors.js";
import type { CallStep } from "./call-step.js";
import { type CircuitState, LocalBreaker } from "./local-breaker.js";
import type { PolicyClock } from "./policy-clock.js";
import type { ResolvedPolicy } from "./resolve-policy.js";

const UPSTREAM_HEALTH: ReadonlySet<string> = UPSTREAM_FAILURE_KINDS;

/** One circuit, as the runtime uses it: guard a call, read the state for `stats()`. */
export interface Breaker {
  /**
   * Runs the call (`run` makes its Effect) through the circuit; a refused call fails with
   * `unavailable` and the wait. Called where the call runs: a local circuit admits it there.
   */
  readonly guard: <A>(
    run: () => Effect.Effect<A, ToolFailure>,
    tool: string,
  ) => Effect.Effect<A, ToolFailure>;
  /** The circuit's state now, or undefined when the store cannot tell. */
  readonly state: () => Promise<CircuitState | undefined>;
  /** The same circuit as plain calls, when it is kept in this process (for the direct call). */
  readonly local?: CircuitNow;
}

/** A circuit in this process, admitting and recording calls as plain code. */
export interface CircuitNow {
  /** Admits a call (undefined) or answers why not; an admitted call must be recorded. */
  readonly admit: (tool: string) => ToolFailure | undefined;
  /** Records how an admitted call ended (see `healthOf`). */
  readonly record: (exit: Exit.Exit<unknown, ToolFailure>) => undefined;
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

/** A circuit in this process (the default, in-memory stores): a closed circuit costs a field read. */
export const localBreaker = (policy: NonNullable<ResolvedPolicy["breaker"]>, clock: PolicyClock): Breaker => {
  const circuit = new LocalBreaker(policy.failures, policy.openForMs, clock);
  // A plain finalizer (`onExitPrimitive` returning no effect): recording is a field update, and an
  // `Effect.sync` per call would cost a frame and a continuation for nothing.
  const record = (exit: Exit.Exit<unknown, ToolFailure>) => {
    circuit.record(healthOf(exit));
    return undefined;
  };
  const admit = (tool: string): ToolFailure | undefined => {
    const refusal = circuit.admit();
    if (refusal === undefined) return undefined;
    return refusal._tag === "CircuitOpen" ? openFailure(tool, refusal.retryAfterMs) : halfOpenFailure(tool);
  };
  return {
    guard: (run, tool) => {
      const refused = admit(tool);
      return refused === undefined ? Effect.onExitPrimitive(run(), record) : Effect.fail(refused);
    },
    state: async () => circuit.state,
    local: { admit, record },
  };
};

/** Runs a call through its tool's circuit, if it has one. Built once per tool. */
export const withBreaker = <S>(breaker: Breaker | undefined, tool: string) => {
  if (!breaker) return <A>(next: CallStep<S, A>) => next;
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) =>
      breaker.guard(() => next(call), tool);
};
