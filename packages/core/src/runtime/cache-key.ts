import { type Effect, Equal, Hash } from "effect";

/**
 * A cache key that compares by its id (tool, caller, canonical input) while carrying the work to run
 * on a miss, so Effect's Cache can coalesce identical concurrent calls into one execution.
 */
export class CacheKey<A, E, R> implements Equal.Equal {
  /** Set by the lookup: true for the one caller whose call actually ran. */
  ran = false;
  constructor(
    readonly id: string,
    readonly exec: Effect.Effect<A, E, R>,
  ) {}
  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof CacheKey && that.id === this.id;
  }
  [Hash.symbol](): number {
    return Hash.string(this.id);
  }
}
