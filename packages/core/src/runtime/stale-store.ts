import { LRUCache } from "lru-cache";

/**
 * The last successful result per cache id (tool, caller, input), kept for the `stale` fallback after
 * the cache entry has expired. Bounded (`lru-cache`: O(1) per write at any size, where a JS Map that
 * deletes its oldest key on every write slows down as deleted entries pile up in its table).
 */
export class StaleStore {
  readonly #entries: LRUCache<string, { data: unknown; at: number }>;
  constructor(
    maxEntries = 5_000,
    private readonly now: () => number = Date.now,
  ) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  /** Keeps `data` as the last good result for `id`, stamped with the time now. */
  set(id: string, data: unknown): void {
    this.#entries.set(id, { data, at: this.now() });
  }

  /** The last good result for `id` and when it was kept. */
  get(id: string): { data: unknown; at: number } | undefined {
    return this.#entries.get(id);
  }
}
