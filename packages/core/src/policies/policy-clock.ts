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
  /** Milliseconds since the epoch, by the clock. */
  readonly now: () => number;
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
  return {
    now: () => clock.currentTimeMillisUnsafe(),
    after: (ms, fire) => {
      const fiber: Fiber.Fiber<void> = Effect.runFork(clock.sleep(Duration.millis(ms)));
      fiber.addObserver((exit) => {
        if (exit._tag === "Success") fire();
      });
      return () => fiber.interruptUnsafe();
    },
  };
};
