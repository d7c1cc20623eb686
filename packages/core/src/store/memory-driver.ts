import { LRUCache } from "lru-cache";
import type { StoreDriver, StoreStatus, Unsubscribe } from "./store-driver.js";

/** Options of {@link memoryDriver}. */
export interface MemoryDriverOptions {
  /** Most keys kept (default 50,000); past it the least recently used go first. */
  readonly maxEntries?: number | undefined;
  /** Most characters of values kept (default 256 Mi); past it the least recently used go first. */
  readonly maxChars?: number | undefined;
  /** The monotonic clock times to live are measured on, in milliseconds (default `performance.now`). */
  readonly now?: (() => number) | undefined;
}

const STATUS: StoreStatus = Object.freeze({ driver: "memory", state: "ok", outages: 0 });

/**
 * The store in this process's memory: the catalog's default, and what the Redis driver answers from
 * while Redis is unreachable. Bounded (`lru-cache`, by keys and by characters); every method answers
 * at once. Two catalogs given the same memory driver share their state as two replicas on one Redis.
 *
 * @example
 * const store = memoryDriver({ maxEntries: 1_000 })
 * store.set("stale:abc", "{}", 60_000)
 * store.get("stale:abc") // "{}"
 */
export const memoryDriver = (options: MemoryDriverOptions = {}): StoreDriver => {
  const now = options.now ?? (() => performance.now());
  // ttlResolution 0: read the clock on every check (an injected test clock moves only when told).
  const entries = new LRUCache<string, string>({
    max: options.maxEntries ?? 50_000,
    maxSize: options.maxChars ?? 256 * 1024 * 1024,
    sizeCalculation: (value) => Math.max(1, value.length),
    ttlResolution: 0,
    // lru-cache reads a start time of 0 as "no time to live": a clock that starts at 0 starts at 1.
    perf: { now: () => now() + 1 },
  });
  const channels = new Map<string, Set<(message: string) => void>>();
  const put = (key: string, value: string, ttlMs: number) => {
    entries.set(key, value, { ttl: Math.max(1, Math.ceil(ttlMs)) });
  };

  return {
    key: (text) => text,
    get: (key) => entries.get(key),
    set: put,
    take: (key) => {
      const value = entries.get(key);
      if (value !== undefined) entries.delete(key);
      return value;
    },
    delete: (key) => void entries.delete(key),
    increment: (key, ttlMs) => {
      const count = Number(entries.get(key) ?? 0) + 1;
      put(key, String(count), ttlMs);
      return count;
    },
    compareAndSet: (key, expected, value, ttlMs) => {
      if (entries.get(key) !== expected) return false;
      if (value === undefined) entries.delete(key);
      else put(key, value, ttlMs);
      return true;
    },
    keys: (prefix) => {
      const found: string[] = [];
      // `entries.keys()` also yields expired keys not yet purged: `has` checks each one's time.
      for (const key of entries.keys()) if (key.startsWith(prefix) && entries.has(key)) found.push(key);
      return found;
    },
    publish: (channel, message) => {
      const listeners = channels.get(channel);
      if (!listeners) return;
      // Delivered after the publisher's turn, as a network driver delivers: a listener never runs
      // inside `publish`, and one that throws loses its message, never the publisher's call.
      for (const listener of [...listeners])
        queueMicrotask(() => {
          try {
            listener(message);
          } catch {}
        });
    },
    subscribe: (channel, listener): Unsubscribe => {
      const listeners = channels.get(channel) ?? channels.set(channel, new Set()).get(channel)!;
      const own = (message: string) => listener(message);
      listeners.add(own);
      return () => {
        listeners.delete(own);
        if (listeners.size === 0 && channels.get(channel) === listeners) channels.delete(channel);
      };
    },
    status: () => STATUS,
  };
};
