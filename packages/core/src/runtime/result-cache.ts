import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { LRUCache } from "lru-cache";
import type { ToolFailure } from "../errors.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import type { CacheResult, Executed } from "./call-types.js";

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
 * Map, which degrades for a hot key as the map grows: 0.8 µs with 1 entry, 35 µs with 16k, measured
 * in `./dev bench core`). Coalescing is by hand rather than through lru-cache's `fetchMethod`, which
 * would run the call in a promise outside the caller's fiber: the first caller runs it in its own
 * fiber (its cancellation reaches the run) and the others wait on a Deferred.
 */
export class ResultCache {
  readonly #stored: LRUCache<string, Executed>;
  readonly #inflight = new Map<string, InFlight>();

  constructor(ttlMs: number, capacity: number, clock: PolicyClock) {
    // ttlResolution 0: read the clock on every check (lru-cache otherwise keeps a "now" for 1 ms of real
    // time, which an injected test clock would not move).
    this.#stored = new LRUCache<string, Executed>({
      max: capacity,
      ttl: ttlMs,
      ttlResolution: 0,
      perf: { now: clock.now },
    });
  }

  /** The stored result for an id, if any (synchronous: a hit never starts a fiber). */
  get(id: string): Executed | undefined {
    return this.#stored.get(id);
  }

  /**
   * The result for `id`: stored, joined from the same call in flight, or run with `run` (and stored
   * when it succeeds). Says whether it was a hit (stored or joined) or a miss (this call ran it).
   * Looks up when called: call it where the call runs (in `Effect.withFiber` or `Effect.suspend`).
   */
  through<R>(id: string, run: Effect.Effect<Executed, ToolFailure, R>): Effect.Effect<CacheAnswer, never, R> {
    const stored = this.#stored.get(id);
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
    const slot: InFlight = { waiters: undefined };
    this.#inflight.set(id, slot);
    const settle = (exit: Exit.Exit<Executed, ToolFailure>) => {
      this.#inflight.delete(id);
      if (Exit.isSuccess(exit)) this.#stored.set(id, exit.value);
      if (slot.waiters) Deferred.doneUnsafe(slot.waiters, exit);
    };
    return Effect.exit(run).pipe(
      // The caller that runs it was cancelled: its joiners end too (they may call again).
      Effect.onInterrupt(() => Effect.sync(() => settle(Exit.interrupt()))),
      Effect.map((exit) => {
        settle(exit);
        return { exit, cache: "miss" as const };
      }),
    );
  }
}
