import { randomBytes } from "node:crypto";
import type { SharedKind, SharedStore } from "@quiver/core";
import { Duration, Effect, ManagedRuntime, type Redacted } from "effect";
import { Redis } from "effect/persistence";
import { lazyRedisLayer, type RedisLog, redisLogToStderr } from "./internal/lazy-redis.js";
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
  /**
   * Most cached results, and most last good results, kept in Redis (default 100,000 each): past it
   * the oldest written are deleted. Redis's own `maxmemory` bounds the bytes.
   */
  readonly maxEntries?: number | undefined;
  /** Where the store says Redis went away and came back (as for `redisStores`; default standard error). */
  readonly log?: RedisLog | undefined;
}

/** The kinds whose entries are counted against `maxEntries` (the others are few and short-lived). */
const BOUNDED: ReadonlySet<SharedKind> = new Set(["cache", "stale"]);

/** How long the store fails at once after a failed command before it tries Redis again. */
const RETRY_AFTER_FAILURE_MS = 1_000;

/** GET then DEL in one step (GETDEL needs Redis 6.2; this runs on 5). */
const TAKE = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v";
/** INCR and restart the key's time to live. */
const INCREMENT = "local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], ARGV[1]) return n";
/**
 * SET with a time to live, note the key in the kind's index (a sorted set by write time), and delete
 * the oldest written keys while the index holds more than ARGV[4]. Keys already expired by their own
 * time to live are only dropped from the index; the index itself has no time to live (it holds at most
 * ARGV[4] names).
 */
const SET_BOUNDED = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local old = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #old, 2 do redis.call('DEL', old[i]) end
end
return over`;
/** DEL only if the lock still holds this holder's value (it may have expired and been taken since). */
const UNLOCK = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * The catalog's shared state in Redis, for `createCatalog({ shared })`: cached results, confirmation
 * tokens, last good results for the `stale` fallback and escalation counts, seen by every host
 * replica given the same Redis and prefix. Use it beside {@link redisStores} (limits and breakers).
 *
 * Every key has a time to live (the cache policy's, the token's, 24 h for last good results, 1 h
 * for failure counts) and names only a SHA-256 hash; values are JSON with the plugin's secrets
 * redacted. Size: at most `maxEntries` cached results and as many last good results (the oldest
 * written go first), a result over 1 MB of JSON is not shared, and Redis's `maxmemory` with
 * `maxmemory-policy volatile-lru` (or `allkeys-lru` on a Redis used only by Quiver) bounds the bytes. In-flight de-duplication across replicas uses
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
  const runtime = ManagedRuntime.make(
    lazyRedisLayer({
      url,
      timeout,
      log: options.log ?? redisLogToStderr,
      serves: "cached results, confirmation tokens and failure counts",
      meanwhile: "each replica keeps them in its own memory",
    }),
  );
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
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new TypeError(`maxEntries: expected a positive integer, got ${maxEntries}.`);

  const ms = (n: number) => String(Math.max(1, Math.ceil(n)));
  /** This process's value in each lock it holds. */
  const held = new Map<string, string>();
  const text = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

  return {
    get: async (kind, key) => text(await send("GET", k(kind, key))),
    set: async (kind, key, value, ttlMs) => {
      if (!BOUNDED.has(kind)) {
        await send("SET", k(kind, key), value, "PX", ms(ttlMs));
        return;
      }
      const index = `${prefix}index:${kind}`;
      await send(
        "EVAL",
        SET_BOUNDED,
        "2",
        k(kind, key),
        index,
        value,
        ms(ttlMs),
        String(Date.now()),
        String(maxEntries),
      );
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
