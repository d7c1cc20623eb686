import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type { ToolFailure } from "../errors.js";
import type { CircuitNow } from "../policies/breaker-policy.js";
import type { CallStep } from "../policies/call-step.js";
import type { RetryPlan } from "../policies/retry-policy.js";
import type { CallState } from "./call-state.js";
import type { CacheResult, Executed, Outcome } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { ResultCache } from "./result-cache.js";
import { failureFromCause, PendingAttempt, startAttempt } from "./run-attempt.js";
import type { ToolWorld } from "./tool-context.js";

/**
 * Runs one call of a tool without a fiber and calls `done` once, with its outcome, or with undefined
 * when it was cancelled (`cancel`, returned). Answers undefined, having done nothing, when it cannot
 * take this call: the caller then runs it through the tool's Effect pipeline.
 */
export type DirectCall = (
  call: CallState,
  done: (outcome: Outcome | undefined) => void,
) => (() => void) | undefined;

/** The policies' own parts a direct call is composed of (each also used by the Effect pipeline). */
export interface DirectParts {
  readonly reg: RegisteredTool;
  readonly world: ToolWorld;
  /** The runtime's context: the handed-over parts run in fibers on it. */
  readonly context: Context.Context<never>;
  /** The result cache, kept in this process only. */
  readonly cache: ResultCache | undefined;
  /** Takes the call's rate-limit tokens: the failure of a call over a limit, or undefined. */
  readonly rateLimit: (call: CallState) => ToolFailure | undefined;
  readonly circuit: CircuitNow | undefined;
  /** Sets the call's deadline (`timeoutArm`); answers the function that clears it, if one was set. */
  readonly arm: (call: CallState) => (() => void) | undefined;
  readonly retry: RetryPlan<CallState> | undefined;
  /** One attempt as an Effect, for the retries. */
  readonly attempt: CallStep<CallState, Executed>;
  /** The outcome of a failed call: the failure, or its fallback tool's answer. */
  readonly failed: (call: CallState, failure: ToolFailure, cache: CacheResult) => Outcome | Promise<Outcome>;
}

/**
 * The common call as plain code: the same policies as the tool's Effect pipeline (`buildPipeline`),
 * in the same order (cache → rate limit → breaker → timeout → retry → attempt, then the fallback
 * tool), for a call whose policies all decide in this process at once and whose tool's resources are
 * open. Where the call has to wait in Effect, it hands that part to the pipeline's own Effect in a
 * fiber and goes on when it ends: a tool that returns an Effect, and the retries after a first
 * failure (Effect's Schedule). The calls that never come here (the pipeline runs them whole): a
 * tracer installed (a span per call), a shared store (cache, limits or breaker), a rate limit in
 * "delay" mode, a tool whose resources are not open yet, and a call that joins the same call in
 * flight.
 *
 * Why by hand: the call's fiber and Effect's composition of the steps cost about 1.5 µs of a 4 µs
 * cache miss with every policy on (a prototype measured in `./dev bench core`), more than every policy
 * together; here a call that succeeds at once costs its timer, a promise's `then` and field updates.
 * Every behaviour test of the policies runs on both paths (the Effect path with a tracer installed).
 */
export const directCall = (parts: DirectParts): DirectCall => {
  const { reg, world, cache, rateLimit, circuit, arm, retry, attempt, failed } = parts;
  const fork = Effect.runForkWith(parts.context);
  return (s, done) => {
    if (!reg.resources.isReady) return undefined;
    const store = cache?.begin(s.cacheId, s.startedAt);
    if (cache && !store) return undefined;
    const cacheResult: CacheResult = cache ? "miss" : undefined;

    let disarm: (() => void) | undefined;
    let admitted = false;
    /** Stops what the call waits for now: a promise, or a fiber handed over. */
    let stop: (() => void) | undefined;
    let ended = false;
    let cancelled = false;
    let delivered = false;

    const deliver = (outcome: Outcome | undefined) => {
      if (delivered) return;
      delivered = true;
      done(outcome);
    };
    // How the policies' part ended (rate limit → … → attempt): finalised from the inside out as the
    // pipeline's are (the deadline cleared, the circuit told, the cache given the result), then the
    // outcome, through the fallback tool when it failed.
    const end = (exit: Exit.Exit<Executed, ToolFailure>) => {
      if (ended) return;
      ended = true;
      stop = undefined;
      disarm?.();
      if (admitted) circuit?.record(exit);
      store?.(exit);
      if (cancelled) return deliver(undefined);
      if (Exit.isSuccess(exit))
        return deliver({ _tag: "Succeeded", executed: exit.value, cache: cacheResult });
      const outcome = failed(s, failureFromCause(exit.cause, reg.name), cacheResult);
      if (outcome instanceof Promise) outcome.then(deliver);
      else deliver(outcome);
    };
    // A part that waits in Effect: run in a fiber on the runtime's context, which `cancel` interrupts.
    const handOver = (
      effect: Effect.Effect<Executed, ToolFailure>,
      then: (exit: Exit.Exit<Executed, ToolFailure>) => void,
    ) => {
      const fiber = fork(effect);
      const exit = fiber.pollUnsafe();
      if (exit) return then(exit);
      stop = () => fiber.interruptUnsafe();
      fiber.addObserver(then);
    };
    // The first attempt's end: a failure the retry policy retries goes on in its Schedule.
    const afterFirst = (exit: Exit.Exit<Executed, ToolFailure>) => {
      if (retry && !cancelled && Exit.isFailure(exit)) {
        const first = Exit.findErrorOption(exit);
        if (first._tag === "Some" && retry.retries(first.value)) {
          return handOver(retry.after(s, first.value, attempt), end);
        }
      }
      end(exit);
    };
    const cancel = () => {
      if (delivered) return;
      cancelled = true;
      const waiting = stop;
      stop = undefined;
      waiting?.();
      // A promise stopped, or the fallback tool's answer not waited for: the call ends here.
      if (!ended) end(Exit.interrupt());
      else deliver(undefined);
    };

    // A throw here is a bug in the runtime: the call still ends (its cache slot, its circuit) with it.
    try {
      const limited = rateLimit(s);
      if (limited) {
        end(Exit.fail(limited));
        return cancel;
      }
      if (circuit) {
        const refused = circuit.admit(reg.name);
        if (refused) {
          end(Exit.fail(refused));
          return cancel;
        }
        admitted = true;
      }
      disarm = arm(s);
      const started = startAttempt(reg, s, world);
      if (started instanceof PendingAttempt) {
        let waiting = true;
        const stopWait = started.wait(s.deadline, (exit) => {
          waiting = false;
          afterFirst(exit);
        });
        if (waiting) stop = stopWait;
      } else if (Exit.isExit(started)) afterFirst(started);
      // An Effect cannot hold the deadline: it runs in a fiber the deadline interrupts.
      else handOver(s.deadline ? s.deadline.race(started) : started, afterFirst);
    } catch (defect) {
      end(Exit.die(defect));
    }
    return cancel;
  };
};
