import { fail, type ToolFailure } from "../errors.js";

/**
 * The timeout step bounds a call's total time (every attempt and the waits between them) with
 * Effect's `timeoutOrElse`, on the runtime's Clock (a TestClock in tests): the smaller of the call's
 * own limit and the tool's maximum. On expiry the run is interrupted (its AbortSignal fires) and the
 * call fails with this: `timeout`, carrying whatever partial data the tool reported.
 */
export const timedOut = (tool: string, limitMs: number, partialData: unknown): ToolFailure =>
  fail.timeout(
    `${tool} did not finish within ${limitMs} ms${partialData === undefined ? "" : "; returning what was found so far"}.`,
    partialData === undefined
      ? { suggestion: "Try again with a narrower request, or later." }
      : { data: partialData, suggestion: "The data is incomplete: say so, or narrow the request." },
  );
