import { randomBytes } from "node:crypto";
import type { SharedKind, SharedStore } from "@quiver/core";
import { Duration, Effect, ManagedRuntime, type Redacted } from "effect";
import { Redis } from "effect/persistence";
import { lazyRedisLayer } from "./internal/lazy-redis.js";
import { parseRedisUrl } from "./internal/redis-url.js";
import { DEFAULT_PREFIX } from "./redis-stores.js";

/** Options of {@link redisSharedStore}. */
export interface RedisSharedStoreOptions {
  /** The Redis server (as for `redisStores`); kept Redacted, never in errors or logs. */
  readonly url: string | Redacted.Redacted<string>;
  /** Put before every key (default `"quiver:"`): keys are `${prefix}shared:<kind>:<hash>`. */
  readonly prefix?: string | undefined;
  /**
   * Longest wait for connecting and for each command (default 500 ms). Past it the catalog goes on
   * with its in-memory state for that call, so a hung Redis costs a call at most a few of these.
   */
  readonly commandTimeout?: Duration.Input | undefined;
}

/** How long the store fails at once after a failed command before it tries Redis again. */
const RETRY_AFTER_FAILURE_MS = 1_000;

/** GET then DEL in one step (GETDEL needs Redis 6.2; this runs on 5). */
const TAKE = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v";
/** INCR and restart the key's time to live. */
const INCREMENT = "local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], ARGV[1]) return n";
/** DEL only if the lock still holds this holder's value (it may have expired and been taken since). */
const UNLOCK = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * The catalog's shared state in Redis, for `createCatalog({ shared })`: cached results, confirmation
 * tokens, last good results for the `stale` fallback and escalation counts, seen by every host
 * replica given the same Redis and prefix. Use it beside {@link redisStores} (limits and breakers).
 *
 * Every key has a time to live (the cache policy's, the token's, 24 h for last good results, 1 h
 * for failure counts) and names only a SHA-256 hash; values are JSON with the plugin's secrets
 * redacted. The size bound is Redis's own: set `maxmemory` with `maxmemory-policy volatile-lru`
 * (or `allkeys-lru` on a Redis used only by Quiver) and Redis evicts the least recently used entries
 * when full; a result over 1 MB of JSON is not shared. In-flight de-duplication across replicas uses
 * a short lock (`SET NX PX`, released by its holder only).
 *
 * It connects on first use and never throws into a call: while Redis is down or slow a command
 * fails within `commandTimeout`, the commands of the next second fail at once, and the catalog
 * answers from its own memory; then a command connects again. Throws a `TypeError` (without the URL) when `url` is not a redis URL.
 *
 * @example
 * import { createCatalog } from "@quiver/core"
 * import { redisSharedStore, redisStores } from "@quiver/redis"
 *
 * const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
 * const catalog = createCatalog({ stores: redisStores({ url }), shared: redisSharedStore({ url }) })
 */
export const redisSharedStore = (options: RedisSharedStoreOptions): SharedStore => {
  const url = parseRedisUrl(options.url);
  const prefix = `${options.prefix ?? DEFAULT_PREFIX}shared:`;
  const timeout = Duration.fromInputUnsafe(options.commandTimeout ?? "500 millis");
  const runtime = ManagedRuntime.make(lazyRedisLayer({ url, timeout }));
  // After a failed command the store fails at once for a second: while Redis is down or hung a call
  // pays at most one timeout a second per replica, not one per command.
  let downUntil = 0;
  const send = async <A>(command: string, ...args: ReadonlyArray<string>): Promise<A> => {
    if (downUntil > Date.now()) throw new Error("Redis was unreachable a moment ago");
    try {
      return await runtime.runPromise(
        Effect.flatMap(Effect.service(Redis.Redis), (redis) => redis.send<A>(command, ...args)),
      );
    } catch (error) {
      downUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
      throw error;
    }
  };
  const k = (kind: SharedKind, key: string) => `${prefix}${kind}:${key}`;
  const ms = (n: number) => String(Math.max(1, Math.ceil(n)));
  /** This process's value in each lock it holds. */
  const held = new Map<string, string>();
  const text = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

  return {
    get: async (kind, key) => text(await send("GET", k(kind, key))),
    set: async (kind, key, value, ttlMs) => {
      await send("SET", k(kind, key), value, "PX", ms(ttlMs));
    },
    take: async (kind, key) => text(await send("EVAL", TAKE, "1", k(kind, key))),
    delete: async (kind, key) => {
      await send("DEL", k(kind, key));
    },
    increment: async (kind, key, ttlMs) =>
      Number(await send("EVAL", INCREMENT, "1", k(kind, key), ms(ttlMs))),
    lock: async (key, ttlMs) => {
      const value = randomBytes(9).toString("base64url");
      const got = await send("SET", `${prefix}lock:${key}`, value, "NX", "PX", ms(ttlMs));
      if (got !== "OK") return false;
      held.set(key, value);
      return true;
    },
    unlock: async (key) => {
      const value = held.get(key);
      if (value === undefined) return;
      held.delete(key);
      await send("EVAL", UNLOCK, "1", `${prefix}lock:${key}`, value);
    },
    close: () => runtime.dispose(),
  };
};
