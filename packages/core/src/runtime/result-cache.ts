import type * as Cause from "effect/Cause";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { LRUCache } from "lru-cache";
import type { ToolFailure } from "../errors.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import type { CacheResult, Executed } from "./call-types.js";
import { type SharedStore, sharedKey } from "./shared-store.js";

/** The shared layer of a result cache: other replicas' results, and their runs in flight. */
export interface SharedCacheOptions {
  readonly store: SharedStore;
  /** How long one replica's run holds the lock that keeps the others waiting for its result. */
  readonly lockMs: number;
  /** Replaces the plugin's secrets in a value before it is stored. */
  readonly redact: (json: string) => string;
}

/** Longest value written to the shared store (characters of JSON); a larger result stays local. */
const MAX_SHARED_CHARS = 1_000_000;

/** How often a replica that found another's run in flight looks for its result. */
const POLL_MS = 25;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A run in flight, and the Deferred its joiners wait on (made when the first one joins). */
interface InFlight {
  waiters: Deferred.Deferred<Executed, ToolFailure> | undefined;
}

/** A cached tool's run: how it ended, and whether this call ran it (miss) or not (hit). */
export interface CacheAnswer {
  readonly exit: Exit.Exit<Executed, ToolFailure>;
  readonly cache: Exclude<CacheResult, undefined>;
}

/**
 * A tool's result cache: successful executions by cache id (tool, caller, canonical input) for the
 * policy's time to live, at most `capacity` of them, and identical calls in flight coalesced into one
 * run.
 *
 * Storage is `lru-cache`: O(1) per lookup at any size (Effect's `Cache` re-inserts every hit into a JS
 * Map, which slows a hot key as the map grows; see bench/README.md). Coalescing is by hand rather than through lru-cache's `fetchMethod`, which
 * would run the call in a promise outside the caller's fiber: the first caller runs it in its own
 * fiber (its cancellation reaches the run) and the others wait on a Deferred.
 */
export class ResultCache {
  readonly #stored: LRUCache<string, Executed>;
  readonly #inflight = new Map<string, InFlight>();
  readonly #ttlMs: number;
  readonly #clock: PolicyClock;
  readonly #shared: SharedCacheOptions | undefined;

  /**
   * With `shared`, a local miss looks in the shared store (results of other replicas) before it runs,
   * and a run's result is written there too; the local entries stay in front, so a local hit costs
   * the same as without it.
   */
  constructor(ttlMs: number, capacity: number, clock: PolicyClock, shared?: SharedCacheOptions) {
    this.#ttlMs = ttlMs;
    this.#clock = clock;
    this.#shared = shared;
    // ttlResolution 0: read the clock on every check (lru-cache otherwise keeps a "now" for 1 ms of real
    // time, which an injected test clock would not move). Ages are intervals: the monotonic clock.
    this.#stored = new LRUCache<string, Executed>({
      max: capacity,
      ttl: ttlMs,
      ttlResolution: 0,
      perf: { now: clock.monotonic },
    });
  }

  /** The stored result for an id, if any (synchronous: a hit never starts a fiber). */
  get(id: string): Executed | undefined {
    return this.#stored.get(id);
  }

  /**
   * The result for `id`: stored, joined from the same call in flight, or run with the Effect `run`
   * makes (and stored when it succeeds). Says whether it was a hit (stored or joined) or a miss (this call ran it).
   * Looks up when called: call it where the call runs (in `Effect.withFiber` or `Effect.suspend`).
   * `looked`: the caller has just found no stored entry with `get` (a second lookup would cost a
   * hash-map probe per miss). `startedAt`: when the call started (the clock's monotonic time), which
   * a stored result's age counts from; read from the clock when it is stored if not given.
   */
  through<R>(
    id: string,
    run: () => Effect.Effect<Executed, ToolFailure, R>,
    looked = false,
    startedAt?: number,
  ): Effect.Effect<CacheAnswer, never, R> {
    const stored = looked ? undefined : this.#stored.get(id);
    if (stored !== undefined)
      return Effect.succeed({
        exit: Exit.succeed(stored) as Exit.Exit<Executed, ToolFailure>,
        cache: "hit",
      });
    const running = this.#inflight.get(id);
    if (running) {
      // The Deferred is made by the first caller that waits: most runs have no one waiting.
      running.waiters ??= Deferred.makeUnsafe<Executed, ToolFailure>();
      return Effect.map(Effect.exit(Deferred.await(running.waiters)), (exit) => ({
        exit,
        cache: "hit" as const,
      }));
    }
    const settle = this.#start(id, startedAt);
    if (!this.#shared) {
      // Without a shared store: the run, as before the store existed (the hot path of a miss).
      // Settled however the run ends: with its result, its failure, or (the caller that runs it was
      // cancelled) an interruption, which its joiners see too (they may call again).
      return Effect.matchCauseEffect(
        Effect.onExitPrimitive(run(), (exit) => {
          settle(exit);
          return undefined;
        }),
        MISSED,
      );
    }
    return this.#throughShared(id, Effect.suspend(run), this.#shared).pipe(
      Effect.onInterrupt(() => Effect.sync(() => settle(Exit.interrupt()))),
      Effect.map(({ exit, cache, ttl }) => {
        settle(exit, ttl);
        return { exit, cache };
      }),
    );
  }

  #start(id: string, startedAt: number | undefined) {
    const slot: InFlight = { waiters: undefined };
    this.#inflight.set(id, slot);
    return (exit: Exit.Exit<Executed, ToolFailure>, ttl?: number) => {
      this.#inflight.delete(id);
      if (Exit.isSuccess(exit)) {
        // Aged from the call's start: the result is as old as the request that fetched it.
        if (ttl === undefined)
          this.#stored.set(id, exit.value, startedAt === undefined ? undefined : { start: startedAt });
        else this.#stored.set(id, exit.value, { ttl });
      }
      if (slot.waiters) Deferred.doneUnsafe(slot.waiters, exit);
    };
  }

  /**
   * A local miss with a shared store: another replica's stored result (kept locally for what is left
   * of its time to live), else this replica runs it under a short lock (`SET NX PX`) while the others
   * wait for its result; a replica that cannot take the lock looks for the result until the lock
   * would have expired, then runs it itself. A store that fails or times out counts as a miss.
   */
  #throughShared<R>(
    id: string,
    run: Effect.Effect<Executed, ToolFailure, R>,
    shared: SharedCacheOptions,
  ): Effect.Effect<SharedAnswer, never, R> {
    const key = sharedKey(id);
    const lockKey = `cache-lock:${key}`;
    const hit = (found: Found): SharedAnswer => ({
      exit: Exit.succeed(found.executed) as Exit.Exit<Executed, ToolFailure>,
      cache: "hit",
      ttl: found.ttl,
    });
    // A miss answers once its result is in the shared store (one bounded write), so the caller's
    // next request finds it on any replica.
    const runHere = (locked: boolean) =>
      Effect.flatMap(Effect.exit(run), (exit) => {
        const answer: SharedAnswer = { exit, cache: "miss", ttl: undefined };
        if (Exit.isSuccess(exit)) {
          return Effect.as(
            Effect.promise(() => this.#publish(key, exit.value, shared, locked ? lockKey : undefined)),
            answer,
          );
        }
        if (locked) shared.store.unlock(lockKey).catch(() => undefined);
        return Effect.succeed(answer);
      });
    return Effect.flatMap(
      Effect.promise(() => this.#fetch(key, shared)),
      (found): Effect.Effect<SharedAnswer, never, R> => {
        if (found) return Effect.succeed(hit(found));
        return Effect.flatMap(
          Effect.promise(() => shared.store.lock(lockKey, shared.lockMs).catch(() => undefined)),
          (locked) => {
            // The store is down: run here, unshared.
            if (locked === undefined) return runHere(false);
            if (locked) return runHere(true);
            return Effect.flatMap(
              Effect.promise(() => this.#await(key, shared)),
              (other): Effect.Effect<SharedAnswer, never, R> =>
                other ? Effect.succeed(hit(other)) : runHere(false),
            );
          },
        );
      },
    );
  }

  /** The shared entry for `key`, if any (never rejects). */
  async #fetch(key: string, shared: SharedCacheOptions): Promise<Found | undefined> {
    try {
      const text = await shared.store.get("cache", key);
      if (text === undefined) return undefined;
      const entry = JSON.parse(text) as StoredEntry;
      const ttl = entry.expiresAt - this.#clock.now();
      return ttl > 0 ? { executed: entry.executed, ttl: Math.min(ttl, this.#ttlMs) } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Looks for the result of another replica's run until its lock would have expired. */
  async #await(key: string, shared: SharedCacheOptions): Promise<Found | undefined> {
    const until = Date.now() + shared.lockMs;
    while (Date.now() < until) {
      await pause(POLL_MS);
      const found = await this.#fetch(key, shared);
      if (found) return found;
    }
    return undefined;
  }

  /** Writes a result to the shared store, then releases the lock if held (never rejects). */
  async #publish(
    key: string,
    executed: Executed,
    shared: SharedCacheOptions,
    lockKey: string | undefined,
  ): Promise<void> {
    try {
      const text = shared.redact(JSON.stringify({ executed, expiresAt: this.#clock.now() + this.#ttlMs }));
      // Too large: kept in this replica only.
      if (text.length <= MAX_SHARED_CHARS) await shared.store.set("cache", key, text, this.#ttlMs);
    } catch {
      // Not JSON (a BigInt, a cycle), or the store failed: kept in this replica only.
    }
    if (lockKey) await shared.store.unlock(lockKey).catch(() => undefined);
  }
}

/** How a miss this call ran ended, as its answer (one frame for both ends, no closure per call). */
const MISSED = {
  onSuccess: (executed: Executed) =>
    Effect.succeed<CacheAnswer>({ exit: Exit.succeed(executed), cache: "miss" }),
  onFailure: (cause: Cause.Cause<ToolFailure>) =>
    Effect.succeed<CacheAnswer>({ exit: Exit.failCause(cause), cache: "miss" }),
};

/** An answer before it is settled: with the time to live left, for an entry of another replica. */
interface SharedAnswer extends CacheAnswer {
  readonly ttl: number | undefined;
}

/** A result found in the shared store and how long it has left. */
interface Found {
  readonly executed: Executed;
  readonly ttl: number;
}

/** A shared entry: the result and when it expires (milliseconds since the epoch). */
interface StoredEntry {
  readonly executed: Executed;
  readonly expiresAt: number;
}
