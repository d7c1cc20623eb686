import { randomBytes } from "node:crypto";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { LRUCache } from "lru-cache";
import type { ToolFailure } from "../errors.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import { after, lift } from "../store/maybe-promise.js";
import type { MaybePromise, StoreDriver } from "../store/store-driver.js";
import type { CacheResult, Executed } from "./call-types.js";

/** What a tool's result cache is made of. */
export interface ResultCacheOptions {
  /** How long a result is served (the cache policy's time to live). */
  readonly ttlMs: number;
  /** Most results this process keeps in front of the store. */
  readonly capacity: number;
  readonly clock: PolicyClock;
  /** The catalog's store: results of every process on it, and the leases of their runs in flight. */
  readonly store: StoreDriver;
  /** How long one run holds the lease that keeps the other processes waiting for its result. */
  readonly leaseMs: number;
  /** Replaces the plugin's secrets in a value before it is stored. */
  readonly redact: (json: string) => string;
}

/** How {@link ResultCache.through} is called. */
export interface ThroughOptions {
  /**
   * The caller has just found no entry with `get`, so `through` does not look again (a second lookup
   * would cost a hash-map probe per miss).
   */
  readonly looked?: boolean | undefined;
  /** When the call started (the clock's monotonic time): a stored result is as old as its request. */
  readonly startedAt?: number | undefined;
}

/** Longest value written to the store (characters of JSON); a larger result stays in this process. */
const MAX_STORED_CHARS = 1_000_000;

/** How often a process that found another's run in flight looks for its result. */
const POLL_MS = 25;

/** This process's part of a lease holder's name; a counter makes each run's unique. */
const PROCESS = randomBytes(9).toString("base64url");
let runs = 0;

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

/** An answer before it is settled: with the time to live left, for an entry another process stored. */
interface StoreAnswer extends CacheAnswer {
  readonly ttl: number | undefined;
}

/** A stored entry: the result and when it expires (milliseconds since the epoch). */
interface StoredEntry {
  readonly executed: Executed;
  readonly expiresAt: number;
}

/**
 * A tool's result cache: successful executions by cache id (tool, caller, canonical input) for the
 * policy's time to live, identical calls coalesced into one run.
 *
 * One path: this process keeps up to `capacity` results in front (`lru-cache`, O(1) per lookup at any
 * size), so a local hit never asks the store; a local miss looks in the catalog's store (what any
 * process on it stored), else runs under a lease (the store's compare-and-set) while the others wait
 * for its result, and stores the result (redacted) before it answers. Coalescing in this process is
 * by hand, not lru-cache's `fetchMethod` (which would run the call in a promise outside the caller's
 * fiber): the first caller runs it in its own fiber and the others wait on a Deferred.
 */
export class ResultCache {
  readonly #stored: LRUCache<string, Executed>;
  readonly #inflight = new Map<string, InFlight>();
  readonly #options: ResultCacheOptions;

  constructor(options: ResultCacheOptions) {
    this.#options = options;
    // ttlResolution 0: read the clock on every check (lru-cache otherwise keeps a "now" for 1 ms of real
    // time, which an injected test clock would not move). Ages are intervals: the monotonic clock.
    this.#stored = new LRUCache<string, Executed>({
      max: options.capacity,
      ttl: options.ttlMs,
      ttlResolution: 0,
      perf: { now: options.clock.monotonic },
    });
  }

  /** The result this process keeps for an id, if any (synchronous: a hit never starts a fiber). */
  get(id: string): Executed | undefined {
    return this.#stored.get(id);
  }

  /**
   * The result for `id`: kept here, joined from the same call in flight, found in the store, or run
   * with the Effect `run` makes (and stored when it succeeds). Says whether it was a hit or a miss
   * (this call ran it). Looks up when called: call it where the call runs (in `Effect.suspend`).
   */
  through<R>(
    id: string,
    run: () => Effect.Effect<Executed, ToolFailure, R>,
    options: ThroughOptions = {},
  ): Effect.Effect<CacheAnswer, never, R> {
    const stored = options.looked ? undefined : this.#stored.get(id);
    if (stored !== undefined)
      return Effect.succeed({ exit: Exit.succeed(stored) as Exit.Exit<Executed, ToolFailure>, cache: "hit" });
    const running = this.#inflight.get(id);
    if (running) {
      // The Deferred is made by the first caller that waits: most runs have no one waiting.
      running.waiters ??= Deferred.makeUnsafe<Executed, ToolFailure>();
      return Effect.map(Effect.exit(Deferred.await(running.waiters)), (exit) => ({
        exit,
        cache: "hit" as const,
      }));
    }
    const settle = this.#start(id, options.startedAt);
    // Settled however the run ends: with its result, its failure, or (the caller that runs it was
    // cancelled) an interruption, which its joiners see too (they may call again).
    return this.#throughStore(id, Effect.suspend(run)).pipe(
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
   * A local miss: another process's stored result (kept here for what is left of its time to live),
   * else this process runs it under a lease while the others wait for its result; a process that
   * cannot take the lease looks for the result until the lease would have run out, then runs it.
   */
  #throughStore<R>(
    id: string,
    run: Effect.Effect<Executed, ToolFailure, R>,
  ): Effect.Effect<StoreAnswer, never, R> {
    const { store, leaseMs } = this.#options;
    const key = `cache:${store.key(id)}`;
    const leaseKey = `lease:${key}`;
    const runHere = (holder: string | undefined) =>
      Effect.flatMap(Effect.exit(run), (exit): Effect.Effect<StoreAnswer> => {
        const answer: StoreAnswer = { exit, cache: "miss", ttl: undefined };
        // A miss answers once its result is stored, so the caller's next request finds it anywhere.
        const written = Exit.isSuccess(exit) ? this.#write(key, exit.value) : undefined;
        const released = (): MaybePromise<unknown> =>
          holder === undefined ? undefined : store.compareAndSet(leaseKey, holder, undefined, leaseMs);
        const done = written instanceof Promise ? written.then(released) : released();
        return done instanceof Promise
          ? Effect.as(
              Effect.promise(() => done),
              answer,
            )
          : Effect.succeed(answer);
      }).pipe(
        Effect.onInterrupt(() =>
          holder === undefined
            ? Effect.void
            : lift(store.compareAndSet(leaseKey, holder, undefined, leaseMs)),
        ),
      );
    return after(this.#fetch(key), (found): Effect.Effect<StoreAnswer, never, R> => {
      if (found) return Effect.succeed(found);
      const holder = `${PROCESS}:${runs++}`;
      return after(store.compareAndSet(leaseKey, undefined, holder, leaseMs), (leased) =>
        leased
          ? runHere(holder)
          : Effect.flatMap(
              Effect.promise(() => this.#await(key)),
              (other) => (other ? Effect.succeed(other) : runHere(undefined)),
            ),
      );
    });
  }

  /** The stored entry for `key`, if any and not expired by the clock, as a hit. */
  #fetch(key: string): MaybePromise<StoreAnswer | undefined> {
    const text = this.#options.store.get(key);
    return text instanceof Promise ? text.then((t) => this.#entry(t)) : this.#entry(text);
  }

  #entry(text: string | undefined): StoreAnswer | undefined {
    if (text === undefined) return undefined;
    let entry: StoredEntry;
    try {
      entry = JSON.parse(text) as StoredEntry;
    } catch {
      return undefined;
    }
    const ttl = entry.expiresAt - this.#options.clock.now();
    if (!(ttl > 0)) return undefined;
    const exit = Exit.succeed(entry.executed) as Exit.Exit<Executed, ToolFailure>;
    return { exit, cache: "hit", ttl: Math.min(ttl, this.#options.ttlMs) };
  }

  /** Looks for the result of another process's run until its lease would have run out. */
  async #await(key: string): Promise<StoreAnswer | undefined> {
    const until = Date.now() + this.#options.leaseMs;
    while (Date.now() < until) {
      await pause(POLL_MS);
      const found = await this.#fetch(key);
      if (found) return found;
    }
    return undefined;
  }

  /** Writes a result to the store, redacted; one not JSON or too large stays in this process. */
  #write(key: string, executed: Executed): MaybePromise<void> {
    const { store, ttlMs, clock, redact } = this.#options;
    let text: string;
    try {
      text = redact(JSON.stringify({ executed, expiresAt: clock.now() + ttlMs } satisfies StoredEntry));
    } catch {
      // Not JSON (a BigInt, a cycle): kept in this process only.
      return undefined;
    }
    return text.length <= MAX_STORED_CHARS ? store.set(key, text, ttlMs) : undefined;
  }
}
