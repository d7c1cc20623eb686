import { BoundedMap } from "../internal/bounded-map.js";

/**
 * The last successful result per cache id (tool, caller, input), kept for the `stale` fallback after
 * the cache entry has expired. Bounded; the least recently written entries go first.
 */
export class StaleStore {
  readonly #entries: BoundedMap<string, { data: unknown; at: number }>;
  constructor(
    maxEntries = 5_000,
    private readonly now: () => number = Date.now,
  ) {
    this.#entries = new BoundedMap(maxEntries);
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
