import type * as Clock from "effect/Clock";

/**
 * The time the runtime reads outside its fibers (a call's duration, cache entries' age, stale
 * results), from the same Effect `Clock` its policies run on: Effect's `TestClock` in tests, so
 * moving the test clock moves both.
 */
export interface PolicyClock {
  /** Milliseconds since the epoch, by the clock: for times shown to a caller or shared between processes. */
  readonly now: () => number;
  /**
   * Milliseconds on a monotonic clock with sub-millisecond resolution: for intervals in this process
   * (a call's duration, cache entries' age). Live, `performance.now()`; with an injected clock, that
   * clock's time. A call reads it once when it starts and once when it ends.
   */
  readonly monotonic: () => number;
}

/** The clock of a runtime: `clock` when one is injected, the live clock otherwise. */
export const policyClock = (clock: Clock.Clock | undefined): PolicyClock => {
  if (!clock) return { now: Date.now, monotonic: performance.now.bind(performance) };
  const now = () => clock.currentTimeMillisUnsafe();
  return { now, monotonic: now };
};
