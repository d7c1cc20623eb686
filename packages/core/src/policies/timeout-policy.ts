import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import { fail, type ToolFailure } from "../errors.js";
import type { PolicyClock } from "./policy-clock.js";

/**
 * Bounds a call's total time (every attempt and the waits between them). On expiry the run is
 * interrupted (its AbortSignal fires) and the call fails with `timeout`, carrying whatever partial
 * data the tool reported (read by `partialData` when the timer fires).
 *
 * Why not `Effect.timeoutOrElse`: it races two forked fibers and a sleeping fiber per call, which
 * costs more than every other policy together (measured in `./dev bench core`). Here the run is one
 * child fiber and the deadline one timer from the runtime's clock, both dropped when the run ends
 * first. Built once per tool; an infinite timeout installs nothing unless `callLimit` is given.
 *
 * `callLimit` reads a call's own limit from the fiber's context (the caller's `timeoutMs`); the
 * smaller of it and `timeoutMs` (the tool's maximum) applies.
 */
export const withTimeout = (
  timeoutMs: number,
  tool: string,
  clock: PolicyClock,
  partialData: (fiberContext: unknown) => unknown,
  callLimit?: (fiberContext: unknown) => number | undefined,
) => {
  if (!Number.isFinite(timeoutMs) && !callLimit)
    return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  const expired = (limitMs: number, data: unknown) =>
    fail.timeout(
      `${tool} did not finish within ${limitMs} ms${data === undefined ? "" : "; returning what was found so far"}.`,
      data === undefined
        ? { suggestion: "Try again with a narrower request, or later." }
        : { data, suggestion: "The data is incomplete: say so, or narrow the request." },
    );
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    Effect.withFiber((parent) => {
      const own = callLimit?.(parent.context);
      const limitMs = own !== undefined && own < timeoutMs ? own : timeoutMs;
      if (!Number.isFinite(limitMs)) return self;
      return Effect.callback<A, ToolFailure, R>((resume) => {
        const child = Effect.runForkWith(parent.context as never)(self as Effect.Effect<A, ToolFailure>);
        const done = child.pollUnsafe();
        if (done) {
          // Finished without suspending (a synchronous run, a refusal): no timer needed.
          resume(done);
          return;
        }
        let settled = false;
        const cancel = clock.after(limitMs, () => {
          if (settled) return;
          settled = true;
          child.interruptUnsafe();
          resume(Effect.fail(expired(limitMs, partialData(parent.context))));
        });
        child.addObserver((exit: Exit.Exit<A, ToolFailure>) => {
          if (settled) return;
          settled = true;
          cancel();
          resume(exit);
        });
        // The caller went away (cancellation, shutdown): stop the run and the timer.
        return Effect.sync(() => {
          settled = true;
          cancel();
          child.interruptUnsafe();
        });
      });
    });
};
