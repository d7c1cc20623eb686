import type * as Layer from "effect/Layer";
import type { CircuitBreaker, RateLimiter } from "effect/persistence";

/** A value now, or a promise of it: the memory driver answers at once, a network driver later. */
export type MaybePromise<A> = A | Promise<A>;

/** Stops a subscription made with {@link StoreDriver.subscribe}. */
export type Unsubscribe = () => void;

/** Where a driver keeps its data now, for `/health` and metrics. */
export interface StoreStatus {
  /** The driver's name: `"memory"`, `"redis"`. */
  readonly driver: string;
  /**
   * `"ok"`: the driver's own backend answers. `"fallback"`: it is unreachable and this process keeps
   * the data in its own memory until it answers again (the rule every driver follows; see the README).
   */
  readonly state: "ok" | "fallback";
  /** Since when (milliseconds since the epoch) the driver has been in `state`, once it changed. */
  readonly since?: number | undefined;
  /** How many times the backend became unreachable since the driver was made. */
  readonly outages: number;
}

/**
 * The one store a catalog keeps its state in: cached results, confirmation tokens, last good results
 * and escalation counts today; tasks, their leases and spilled result resources next. A small
 * interface in the manner of unstorage's `Driver`: drivers implement it (`memoryDriver` here, the
 * default; `redisStore` in @quiver/redis, for replicas) and callers never ask which one they have.
 *
 * Keys are text; a caller files the part that holds an input, a principal or a token under
 * {@link StoreDriver.key} and keeps a readable namespace in front (`cache:…`, `task:<owner key>:…`),
 * so a prefix lists an owner's keys. Values are text (JSON, with the plugin's secrets redacted by the
 * caller; several megabytes are fine; binary as base64). Every value has a time to live.
 *
 * **The rule when the backend is unreachable**, inside every driver: no method rejects. A driver
 * whose backend fails answers from a memory driver of its own (this process only), reports
 * `"fallback"` in {@link StoreStatus}, logs the outage once, and goes back to the backend when it
 * answers again (logging that too). Data written during the outage stays in that process.
 *
 * @example
 * const store = memoryDriver()
 * await store.set("cache:abc", JSON.stringify({ ok: true }), 60_000)
 * await store.compareAndSet("lease:task-1", undefined, "replica-a", 30_000) // true: the lease is ours
 */
export interface StoreDriver {
  /**
   * The key part for a private text (an input, a principal, a token): a driver whose data leaves the
   * process answers its SHA-256 (`storeKey`), so the text never reaches the backend; the memory
   * driver answers the text itself (it never leaves the process, and a hash per call costs time).
   */
  readonly key: (text: string) => string;
  /** The value under `key`, if any and not expired. */
  readonly get: (key: string) => MaybePromise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds (replacing what was there). */
  readonly set: (key: string, value: string, ttlMs: number) => MaybePromise<void>;
  /** Reads and deletes in one step (a single-use token): of concurrent callers only one gets it. */
  readonly take: (key: string) => MaybePromise<string | undefined>;
  /** Deletes a key (nothing if absent). */
  readonly delete: (key: string) => MaybePromise<void>;
  /** Adds one to a counter, (re)starting its time to live, and returns the new count. */
  readonly increment: (key: string, ttlMs: number) => MaybePromise<number>;
  /**
   * Sets `key` to `value` (deletes it when `value` is undefined) only if it now holds `expected`
   * (undefined: absent or expired), in one step; true when it did. A lease is a compare-and-set:
   * take it with `(key, undefined, holder, ttl)`, renew it with `(key, holder, holder, ttl)`, give it
   * back with `(key, holder, undefined)`; once its time to live runs out anyone may take it.
   */
  readonly compareAndSet: (
    key: string,
    expected: string | undefined,
    value: string | undefined,
    ttlMs: number,
  ) => MaybePromise<boolean>;
  /** Every live key that starts with `prefix` (an owner's tasks, a namespace), in no set order. */
  readonly keys: (prefix: string) => MaybePromise<ReadonlyArray<string>>;
  /** Sends `message` to every subscriber of `channel`, in every process on the same backend. */
  readonly publish: (channel: string, message: string) => MaybePromise<void>;
  /**
   * Calls `listener` with each message published to `channel` from now on (a cancel, a change
   * notification); the promise, if any, resolves once the subscription is in place.
   */
  readonly subscribe: (channel: string, listener: (message: string) => void) => MaybePromise<Unsubscribe>;
  /** Where the data is kept now (see the rule above). */
  readonly status: () => StoreStatus;
  /**
   * The stores of rate limits and circuit breakers on the same backend (effect/persistence's own
   * layers), so one option configures both. Absent: effect's in-memory stores, in this process.
   */
  readonly policyStores?: Layer.Layer<RateLimiter.RateLimiterStore | CircuitBreaker.CircuitBreakerStore>;
  /** Releases the driver's connections (the catalog calls it when it closes). */
  readonly close?: () => Promise<void>;
}

/**
 * Runs `then` on a driver's answer: at once when the driver answered at once (the memory driver, so
 * a call on it never waits a microtask), else when its promise resolves.
 */
export const whenReady = <A, B>(
  answer: MaybePromise<A>,
  then: (value: A) => MaybePromise<B>,
): MaybePromise<B> => (answer instanceof Promise ? answer.then(then) : then(answer));

/** A stored JSON text read back; undefined when there is none or it does not parse. */
export const fromStoredJson = <T>(text: string | undefined): T | undefined => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};
