import { LRUCache } from "lru-cache";

/**
 * Counts consecutive failures per (caller and conversation, tool) so the runtime can set `escalate`.
 * Bounded (`lru-cache`): the least recently used pairs are forgotten first.
 */
export class SessionTracker {
  readonly #failures: LRUCache<string, number>;
  constructor(maxEntries = 10_000) {
    this.#failures = new LRUCache({ max: maxEntries });
  }

  /** Records a failure and returns the consecutive count for this session and tool. */
  failed(session: string, tool: string): number {
    const key = `${session}\u0000${tool}`;
    const count = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, count);
    return count;
  }

  /** True when some failure is counted (a success then has a count to reset). */
  get tracking(): boolean {
    return this.#failures.size > 0;
  }

  /** A success resets the count. */
  succeeded(session: string, tool: string): void {
    if (this.#failures.size === 0) return;
    this.#failures.delete(`${session}\u0000${tool}`);
  }

  /** Pairs remembered now. */
  get size(): number {
    return this.#failures.size;
  }
}
