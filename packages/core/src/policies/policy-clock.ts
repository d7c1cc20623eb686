import type * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import { FixedDelayTimers } from "./fixed-delay-timers.js";

/**
 * The time the policies read and the timers they arm, taken from one Effect `Clock`. With the live
 * clock a timer is a node in a list per delay served by one Node timer (`FixedDelayTimers`); with any other
 * clock (Effect's `TestClock` in tests) it is that clock's `sleep`, run as a fiber, so moving the test
 * clock fires it and no test waits on real time.
 */
export interface PolicyClock {
  /** Milliseconds since the epoch, by the clock: for times shown to a caller or shared between processes. */
  readonly now: () => number;
  /**
   * Milliseconds on a monotonic clock with sub-millisecond resolution: for intervals in this process
   * (a call's duration, rate-limit windows, cache entries' age). Live, `performance.now()`; with an
   * injected clock, that clock's time. A call reads it once when it starts and once when it ends, and
   * its policies use the first reading: each read costs about 50 ns (`./dev bench core`), and a call
   * that read the clock in every policy paid 0.4 µs for it.
   */
  readonly monotonic: () => number;
  /** Calls `fire` after `ms` milliseconds; the returned function cancels it. */
  readonly after: (ms: number, fire: () => void) => () => void;
}

/** Lists of timers kept per runtime, one per delay; further delays use Node's timers directly. */
const MAX_TIMER_LISTS = 64;

/** The clock of a runtime: `clock` when one is injected, the live clock otherwise. */
export const policyClock = (clock: Clock.Clock | undefined): PolicyClock => {
  if (!clock) {
    // One list of timers per delay: a tool's timeout is always the same delay.
    const byDelay = new Map<number, FixedDelayTimers>();
    return {
      now: Date.now,
      monotonic: () => performance.now(),
      after: (ms, fire) => {
        let timers = byDelay.get(ms);
        if (!timers) {
          if (byDelay.size >= MAX_TIMER_LISTS) {
            // Delays of every length (per-call limits): Node's own timer, not a list each.
            const timer = setTimeout(fire, ms);
            return () => clearTimeout(timer);
          }
          timers = new FixedDelayTimers(ms);
          byDelay.set(ms, timers);
        }
        return timers.after(fire);
      },
    };
  }
  const now = () => clock.currentTimeMillisUnsafe();
  return {
    now,
    monotonic: now,
    after: (ms, fire) => {
      const fiber: Fiber.Fiber<void> = Effect.runFork(clock.sleep(Duration.millis(ms)));
      fiber.addObserver((exit) => {
        if (exit._tag === "Success") fire();
      });
      return () => fiber.interruptUnsafe();
    },
  };
};
