/**
 * Counts consecutive failures per (session, tool) so the runtime can set `escalate` after the
 * second one. Bounded: the oldest sessions are forgotten first (a Map keeps insertion order).
 */
export class SessionTracker {
  readonly #failures = new Map<string, number>();
  constructor(private readonly maxEntries = 10_000) {}

  /** Records a failure and returns the consecutive count for this session and tool. */
  failed(session: string, tool: string): number {
    const key = `${session}\u0000${tool}`;
    const count = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.delete(key);
    this.#failures.set(key, count);
    if (this.#failures.size > this.maxEntries) {
      const oldest = this.#failures.keys().next().value;
      if (oldest !== undefined) this.#failures.delete(oldest);
    }
    return count;
  }

  /** A success resets the count. */
  succeeded(session: string, tool: string): void {
    if (this.#failures.size === 0) return;
    this.#failures.delete(`${session}\u0000${tool}`);
  }
}
