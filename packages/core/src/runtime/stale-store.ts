/**
 * The last successful result per cache id (tool, caller, input), kept for the `stale` fallback after
 * the cache entry has expired. Bounded; the least recently written entries go first.
 */
export class StaleStore {
  readonly #entries = new Map<string, { data: unknown; at: number }>();
  constructor(private readonly maxEntries = 5_000) {}

  set(id: string, data: unknown): void {
    this.#entries.delete(id);
    this.#entries.set(id, { data, at: Date.now() });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  get(id: string): { data: unknown; at: number } | undefined {
    return this.#entries.get(id);
  }
}
