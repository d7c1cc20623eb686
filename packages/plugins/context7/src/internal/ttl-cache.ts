/**
 * A small bounded cache whose entries expire after a time to live. Used for resolved library ids,
 * which the tools reuse across calls and queries (the runtime's own cache is keyed by the whole
 * input, so it cannot share a resolution between two different questions about the same library).
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { readonly value: V; readonly expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live value for `key`, refreshed as most recently used; undefined when absent or expired. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= this.now()) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value`; the least recently used entry goes when the cache is full. */
  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#entries.size;
  }
}
