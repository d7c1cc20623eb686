import type * as Clock from "effect/Clock";
import { LRUCache } from "lru-cache";
import type { LibraryMatch } from "./docs-client.js";

/**
 * Resolved library ids by normalised name, reused across calls and questions (the runtime's own
 * cache is keyed by the whole input, so it cannot share a resolution between two questions about the
 * same library). Entries live `ttlMs` on the catalog's clock, at most `max` of them.
 */
export type LibraryCache = LRUCache<string, LibraryMatch>;

/** A library cache whose lifetimes run on `clock` (a test clock moves them without waiting). */
export const libraryCache = (ttlMs: number, clock: Clock.Clock, max = 1_000): LibraryCache =>
  new LRUCache<string, LibraryMatch>({
    max,
    // A ttl of 0 keeps nothing (lru-cache would read 0 as "no expiry").
    ...(ttlMs > 0 ? { ttl: ttlMs } : { maxEntrySize: 1, sizeCalculation: () => 2 }),
    perf: { now: () => clock.currentTimeMillisUnsafe() },
    // Read the clock at every check: a cached reading (lru-cache's default) would miss a test clock's move.
    ttlResolution: 0,
  });
