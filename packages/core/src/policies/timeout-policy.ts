import * as Effect from "effect/Effect";
import { fail } from "../errors.js";
import type { CallStep } from "./call-step.js";

/** What the timeout policy reads of the call it bounds. */
export interface TimedCall {
  /** What the tool reported with `ctx.reportPartial`, returned with the timeout. */
  readonly partialData: unknown;
  /** The caller's own limit, if any. */
  readonly options: { readonly timeoutMs?: number | undefined };
}

/**
 * Bounds a call's total time (every attempt and the waits between them) with Effect's timeout, on
 * the runtime's Clock (a TestClock in tests). On expiry the run is interrupted (its AbortSignal
 * fires) and the call fails with `timeout`, carrying whatever partial data the tool reported (read
 * when the time is up).
 *
 * The smaller of the call's own limit (`options.timeoutMs`) and `timeoutMs` (the tool's maximum)
 * applies. Built once per tool; an infinite timeout with no call limit installs nothing.
 */
export const withTimeout = <S extends TimedCall>(timeoutMs: number, tool: string) => {
  const expired = (limitMs: number, data: unknown) =>
    fail.timeout(
      `${tool} did not finish within ${limitMs} ms${data === undefined ? "" : "; returning what was found so far"}.`,
      data === undefined
        ? { suggestion: "Try again with a narrower request, or later." }
        : { data, suggestion: "The data is incomplete: say so, or narrow the request." },
    );
  return <A>(next: CallStep<S, A>): CallStep<S, A> =>
    (call) => {
      const own = call.options.timeoutMs;
      const limitMs = own !== undefined && own < timeoutMs ? own : timeoutMs;
      if (!Number.isFinite(limitMs)) return next(call);
      return Effect.timeoutOrElse(next(call), {
        duration: limitMs,
        orElse: () => Effect.fail(expired(limitMs, call.partialData)),
      });
    };
};
