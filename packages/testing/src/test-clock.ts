import * as Effect from "effect/Effect";
import * as Scope from "effect/Scope";
import { TestClock } from "effect/testing";

/** A test clock for a catalog, and the ways a test moves it. */
export interface CatalogTestClock {
  /** Pass as `createCatalog({ clock })`. */
  readonly clock: TestClock.TestClock;
  /** Moves the clock forward by `ms`: timers due by then fire. */
  readonly advance: (ms: number) => Promise<void>;
  /** Moves the clock forward in steps of `stepMs` until `promise` settles (at most `maxMs` in all). */
  readonly advanceUntil: <T>(promise: Promise<T>, stepMs?: number, maxMs?: number) => Promise<T>;
  /** The clock's time, in milliseconds since the epoch. */
  readonly now: () => number;
}

/**
 * Effect's TestClock, set to a real date, for `createCatalog({ clock })`: timeouts, backoff waits,
 * breaker and rate-limit windows and cache lifetimes then move only when the test moves the clock,
 * so a test of a policy never waits on real time.
 *
 * @example
 * const time = await makeTestClock();
 * const catalog = createCatalog({ clock: time.clock });
 * const result = await time.advanceUntil(catalog.call("slow_tool", {}), 100);
 */
export const makeTestClock = async (): Promise<CatalogTestClock> => {
  const scope = Scope.makeUnsafe();
  const clock = Effect.runSync(TestClock.make({ warningDelay: "1 hour" }).pipe(Scope.provide(scope)));
  // A real date, as the live clock would give (time 0 reads as "no timestamp" to some caches).
  await Effect.runPromise(clock.setTime(Date.parse("2026-01-01T00:00:00Z")));
  const advance = (ms: number) => Effect.runPromise(clock.adjust(ms));
  const advanceUntil = async <T>(promise: Promise<T>, stepMs = 50, maxMs = 600_000): Promise<T> => {
    let settled = false;
    void promise.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (let moved = 0; !settled && moved < maxMs; moved += stepMs) {
      await advance(stepMs);
      // One turn of the event loop: replies from real sockets come in between steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return promise;
  };
  return {
    clock: clock as TestClock.TestClock,
    advance,
    advanceUntil,
    now: () => clock.currentTimeMillisUnsafe(),
  };
};
