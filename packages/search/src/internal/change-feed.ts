import type { IndexChange, IndexChangeListener } from "../types.js";

/** Starts watching a store for changes made by others; the function it returns stops watching. */
export type ChangeSource = (emit: (change: IndexChange) => void) => () => Promise<void>;

/**
 * The listeners of one index's {@link SearchIndex.watch}: the store's source of outside changes runs only while
 * someone listens, and the index's own writes are announced directly.
 */
export class ChangeFeed {
  private readonly listeners = new Set<IndexChangeListener>();
  private stopSource: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(private readonly source: ChangeSource) {}

  /** Adds a listener; the returned function removes it (the last one stops the source). */
  watch(listener: IndexChangeListener): () => void {
    if (this.closed) return () => undefined;
    this.listeners.add(listener);
    this.stopSource ??= this.source((change) => this.emit(change));
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) void this.stop();
    };
  }

  /** Tells every listener. A listener that throws is skipped: one bad listener must not starve the others. */
  emit(change: IndexChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's own failure is its business; the feed goes on.
      }
    }
  }

  /** Removes every listener and waits until the source has stopped (timer cleared, connection ended). */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.stop();
  }

  private async stop(): Promise<void> {
    const stop = this.stopSource;
    this.stopSource = undefined;
    await stop?.();
  }
}

/** How often a SQLite index polls `PRAGMA data_version` while watched, unless the options say otherwise. */
export const DEFAULT_WATCH_INTERVAL_MS = 1_000;

/**
 * Polls `PRAGMA data_version`, which changes when another connection (this process or another) commits to the
 * file. Polling, because SQLite has no cross-process notification: its update hooks see this connection only.
 */
export function pollDataVersion(version: () => number, intervalMs: number): ChangeSource {
  return (emit) => {
    let seen = version();
    const timer = setInterval(() => {
      let now: number;
      try {
        now = version();
      } catch {
        return; // the file is busy or going away: the next tick (or close) settles it
      }
      if (now !== seen) {
        seen = now;
        emit({});
      }
    }, intervalMs);
    return async () => clearInterval(timer);
  };
}
