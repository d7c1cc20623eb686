import { Effect } from "effect";
import { fail, type ToolFailure } from "../errors.js";

/**
 * Bounds a call's total time. On expiry the run is interrupted (its AbortSignal fires) and the call
 * fails with `timeout`, carrying whatever partial data the tool reported (read by `partialData` when
 * the timer fires). Built once per tool; an infinite timeout installs no timer at all.
 */
export const withTimeout = (timeoutMs: number, tool: string, partialData: Effect.Effect<unknown>) => {
  if (!Number.isFinite(timeoutMs)) return <A, R>(self: Effect.Effect<A, ToolFailure, R>) => self;
  const options = {
    duration: timeoutMs,
    orElse: () =>
      Effect.flatMap(partialData, (data) =>
        Effect.fail(
          fail.timeout(
            `${tool} did not finish within ${timeoutMs} ms${data === undefined ? "" : "; returning what was found so far"}.`,
            data === undefined
              ? { suggestion: "Try again with a narrower request, or later." }
              : { data, suggestion: "The data is incomplete: say so, or narrow the request." },
          ),
        ),
      ),
  };
  return <A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> =>
    Effect.timeoutOrElse(self, options);
};
