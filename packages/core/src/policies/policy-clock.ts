import { type Clock, Duration, Effect, type Fiber } from "effect";

/**
 * The time the policies read and the timers they arm, taken from one Effect `Clock`. With the live
 * clock a timer is Node's own `setTimeout` (one per call, cleared when the call ends); with any other
 * clock (Effect's `TestClock` in tests) it is that clock's `sleep`, run as a fiber, so moving the test
 * clock fires it and no test waits on real time.
 */
export interface PolicyClock {
  /** Milliseconds since the epoch, by the clock. */
  readonly now: () => number;
  /** Calls `fire` after `ms` milliseconds; the returned function cancels it. */
  readonly after: (ms: number, fire: () => void) => () => void;
}

/** The clock of a runtime: `clock` when one is injected, the live clock otherwise. */
export const policyClock = (clock: Clock.Clock | undefined): PolicyClock => {
  if (!clock) {
    return {
      now: Date.now,
      after: (ms, fire) => {
        const timer = setTimeout(fire, ms);
        return () => clearTimeout(timer);
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
