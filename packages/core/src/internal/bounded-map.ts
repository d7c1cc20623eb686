/**
 * A Map that keeps at most `maxEntries` keys, forgetting the least recently written first (a Map
 * keeps insertion order, and `set` re-inserts). Used for per-session counters and stale results.
 *
 * Why by hand: effect's Cache is built for lookups with a loader and TTL, not a plain bounded
 * record; a dozen lines on a Map say exactly what is kept.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Writes `value` as the most recent entry, dropping the oldest beyond `maxEntries`. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }
}
