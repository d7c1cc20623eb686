import * as Effect from "effect/Effect";
import { fail } from "../errors.js";
import type { CallStep } from "./call-step.js";
import { Deadline, type HasDeadline } from "./deadline.js";
import type { PolicyClock } from "./policy-clock.js";

/** What the timeout policy reads and sets on the call it bounds. */
export interface TimedCall extends HasDeadline {
  /** What the tool reported with `ctx.reportPartial`, returned with the timeout. */
  readonly partialData: unknown;
  /** The caller's own limit, if any. */
  readonly options: { readonly timeoutMs?: number | undefined };
}

/**
 * Bounds a call's total time (every attempt and the waits between them). On expiry the run is
 * stopped (its AbortSignal fires) and the call fails with `timeout`, carrying whatever partial data
 * the tool reported (read when the timer fires).
 *
 * Why not `Effect.timeoutOrElse`: it races two forked fibers and a sleeping fiber per call, which
 * costs more than every other policy together (measured in `./dev bench core`). Here the bound is one
 * timer from the runtime's clock and a `Deadline` on the call: the attempt's wait holds it and the
 * timer ends that wait, so the usual call (one attempt, a promise) runs in the call's own fiber; only
 * waits that cannot hold it (a tool's Effect, the backoff between retries) run in a child fiber the
 * deadline interrupts (`Deadline.race`). A child fiber per call cost 1.5–2 µs in `./dev bench core`.
 *
 * The smaller of the call's own limit (`options.timeoutMs`) and `timeoutMs` (the tool's maximum)
 * applies. Built once per tool; an infinite timeout with no call limit installs nothing.
 */
export const withTimeout = <S extends TimedCall>(timeoutMs: number, tool: string, clock: PolicyClock) => {
  const arm = timeoutArm<S>(timeoutMs, tool, clock);
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) => {
      const disarm = arm(call);
      if (!disarm) return next(call);
      return Effect.onExitPrimitive(next(call), () => {
        disarm();
        return undefined;
      });
    };
};

/**
 * The timeout's own part, shared by `withTimeout` and the direct call: sets the call's deadline and
 * starts its timer, and returns the function that cancels the timer and restores the call's outer
 * deadline once the call has ended; undefined when the call has no limit (nothing is set).
 */
export const timeoutArm = <S extends TimedCall>(timeoutMs: number, tool: string, clock: PolicyClock) => {
  const expired = (limitMs: number, data: unknown) =>
    fail.timeout(
      `${tool} did not finish within ${limitMs} ms${data === undefined ? "" : "; returning what was found so far"}.`,
      data === undefined
        ? { suggestion: "Try again with a narrower request, or later." }
        : { data, suggestion: "The data is incomplete: say so, or narrow the request." },
    );
  return (call: S): (() => void) | undefined => {
    const own = call.options.timeoutMs;
    const limitMs = own !== undefined && own < timeoutMs ? own : timeoutMs;
    if (!Number.isFinite(limitMs)) return undefined;
    const deadline = new Deadline();
    const outer = call.deadline;
    call.deadline = deadline;
    const cancel = clock.after(limitMs, () => deadline.expire(expired(limitMs, call.partialData)));
    return () => {
      cancel();
      call.deadline = outer;
    };
  };
};
