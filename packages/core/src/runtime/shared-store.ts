import { createHash } from "node:crypto";

/**
 * Where a catalog keeps the state that every host replica must see: cached results, confirmation
 * tokens, last good results for the `stale` fallback and escalation counts. Give one to
 * `createCatalog({ shared })` (e.g. `redisSharedStore` from @quiver/redis); without one each process
 * keeps its own in memory.
 *
 * Keys reach the store already hashed (SHA-256 of tool, principal and canonical input, or of a
 * token), so no input, principal or token is readable in it; values are JSON text with the plugin's
 * secrets replaced by `[REDACTED]`. Every method may reject (the store is down or slow): the catalog
 * then falls back to its in-memory state for that call and never fails the call because of it.
 * Implementations bound every command with a timeout.
 *
 * @example
 * const memory = new Map<string, string>()
 * const shared: SharedStore = {
 *   get: async (_kind, key) => memory.get(key),
 *   set: async (_kind, key, value) => void memory.set(key, value),
 *   // ...
 * }
 */
export interface SharedStore {
  /** The value stored under a key of this kind, if any and not expired. */
  readonly get: (kind: SharedKind, key: string) => Promise<string | undefined>;
  /** Stores a value for `ttlMs` milliseconds. */
  readonly set: (kind: SharedKind, key: string, value: string, ttlMs: number) => Promise<void>;
  /** Reads and deletes a value in one step (a single-use token): only one caller gets it. */
  readonly take: (kind: SharedKind, key: string) => Promise<string | undefined>;
  /** Deletes a key. */
  readonly delete: (kind: SharedKind, key: string) => Promise<void>;
  /** Adds one to a counter, (re)starting its time to live, and returns the new count. */
  readonly increment: (kind: SharedKind, key: string, ttlMs: number) => Promise<number>;
  /**
   * Takes a short lock (Redis `SET NX PX`): true for the one caller that got it, until `unlock` or
   * `ttlMs`. The result cache uses it so identical calls on several replicas run once.
   */
  readonly lock: (key: string, ttlMs: number) => Promise<boolean>;
  /** Releases a lock taken with `lock`. */
  readonly unlock: (key: string) => Promise<void>;
  /** Releases the store's connections (the catalog calls it when it closes). */
  readonly close?: () => Promise<void>;
}

/** What a shared key holds: a cached result, a confirmation, a last good result, a failure count. */
export type SharedKind = "cache" | "confirm" | "stale" | "failures";

/** A store key for a text (a cache id, a token, a session): its SHA-256, so the text never enters the store. */
export const sharedKey = (text: string): string => createHash("sha256").update(text).digest("base64url");
