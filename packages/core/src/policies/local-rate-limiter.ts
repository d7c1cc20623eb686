import type { PolicyClock } from "./policy-clock.js";

/** What a take from a limit decided. */
export type RateDecision =
  | { readonly _tag: "Admitted"; readonly delayMs: number }
  | { readonly _tag: "Exceeded"; readonly retryAfterMs: number };

/**
 * Rate limits kept in this process, with the semantics of effect/persistence's RateLimiter on its
 * memory store ("fixed-window": each call pushes the key's window end out by window / limit; a call
 * that would pass `limit` in the window fails with the wait, or in "delay" mode is admitted after it).
 *
 * Why by hand: `RateLimiter.consume` is an Effect over a store service, and `effect/persistence`
 * brings Schema, Stream and Channel with it (85 ms and 18 MB at start-up, measured in
 * `./dev bench host`); a limit in one process is a Map update. Limits shared between replicas
 * (`CatalogOptions.stores`) keep using effect's RateLimiter over the store.
 */
export class LocalRateLimiter {
  readonly #counters = new Map<string, { count: number; expiresAt: number }>();

  constructor(private readonly clock: PolicyClock) {}

  /**
   * Takes one call from `key`'s limit of `limit` per `windowMs`, at `now` (the clock's monotonic time;
   * read from the clock when not given).
   */
  take(
    key: string,
    limit: number,
    windowMs: number,
    onExceeded: "fail" | "delay",
    now = this.clock.monotonic(),
  ): RateDecision {
    const refillMs = Math.max(1, windowMs) / limit;
    let counter = this.#counters.get(key);
    if (!counter || counter.expiresAt <= now) {
      counter = { count: 0, expiresAt: now };
      this.#counters.set(key, counter);
    }
    if (onExceeded === "fail") {
      if (counter.count + 1 > limit) return { _tag: "Exceeded", retryAfterMs: counter.expiresAt - now };
      counter.count += 1;
      counter.expiresAt += refillMs;
      return { _tag: "Admitted", delayMs: 0 };
    }
    counter.count += 1;
    counter.expiresAt += refillMs;
    const ttl = counter.expiresAt - now;
    const elapsed = counter.count * refillMs - ttl;
    const windowNumber = Math.floor((counter.count - 1) / limit);
    return { _tag: "Admitted", delayMs: Math.max(0, windowNumber * Math.max(1, windowMs) - elapsed) };
  }
}
