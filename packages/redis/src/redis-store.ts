import { type MaybePromise, memoryDriver, type StoreDriver, storeKey } from "@quiver/core";
import { Duration, Effect, Fiber, Layer, ManagedRuntime, Queue, type Redacted } from "effect";
import { Redis } from "effect/persistence";
import { fallbackPolicyStores } from "./internal/fallback-policy-stores.js";
import { lazyRedisLayer } from "./internal/lazy-redis.js";
import { RedisLink, type RedisLog, redisLogToStderr } from "./internal/redis-link.js";
import { parseRedisUrl } from "./internal/redis-url.js";
import { COMPARE_AND_SET, INCREMENT, ms, prefixPattern, TAKE } from "./internal/store-scripts.js";

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /**
   * The Redis server, `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. Pass it as
   * `Redacted` (or a string: it is wrapped at once); the URL and its password never appear in
   * errors or logs.
   */
  readonly url: string | Redacted.Redacted<string>;
  /**
   * Put before every key (default `"quiver:"`): `${prefix}store:…`, `${prefix}ratelimit:…`,
   * `${prefix}breaker:…`, channels `${prefix}channel:…`. Replicas that share use the same prefix.
   */
  readonly prefix?: string | undefined;
  /** Longest wait for connecting and for each command (default 1 second; an effect `Duration.Input`). */
  readonly commandTimeout?: Duration.Input | undefined;
  /**
   * Where the store says Redis went away (once per outage) and came back: `(level, message)`.
   * Default: standard error, never standard output (an MCP stdio server speaks there). A host passes
   * the log it gives `createCatalog({ log })`.
   */
  readonly log?: RedisLog | undefined;
}

/** The default key prefix. */
export const DEFAULT_PREFIX = "quiver:";

/** How long a broken subscription waits before it subscribes again. */
const RESUBSCRIBE_MS = 1_000;

/**
 * The catalog's store on Redis, for `createCatalog({ store })`: every host replica given the same
 * Redis and prefix shares cached results, confirmation tokens, last good results, escalation
 * counts (and what later issues keep there: tasks, leases, spilled results), and, through
 * `policyStores`, rate limits and circuit breakers (effect/persistence's own `layerStoreRedis`
 * stores, on the same connection).
 *
 * Keys of private texts are SHA-256 hashes (`key`); values are what the catalog wrote (JSON, the
 * plugin's secrets redacted); every key has a time to live. Bound the bytes with Redis's
 * `maxmemory` and `maxmemory-policy volatile-lru`.
 *
 * **Redis unreachable**: no method rejects and no call fails. The store connects on first use (a
 * host starts with Redis down); while Redis is down or hung every command, rate limit and breaker
 * goes to a memory store of this process (so each replica counts for itself), `status()` says
 * `"fallback"`, one warning is logged; a second after a failure a command tries Redis again, and
 * once it answers the store, limits and breakers are shared again (one line logged). Throws a
 * `TypeError` (without the URL) when `url` is not a redis URL.
 *
 * @example
 * import { createCatalog } from "@quiver/core"
 * import { redisStore } from "@quiver/redis"
 *
 * const catalog = createCatalog({ store: redisStore({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }) })
 */
export const redisStore = (options: RedisStoreOptions): StoreDriver => {
  const url = parseRedisUrl(options.url);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const base = `${prefix}store:`;
  const channelBase = `${prefix}channel:`;
  const timeout = Duration.fromInputUnsafe(options.commandTimeout ?? "1 second");
  const link = new RedisLink(options.log ?? redisLogToStderr);
  const runtime = ManagedRuntime.make(lazyRedisLayer({ url, timeout, link }));
  // Built at once (the layer only makes its state; it connects on the first command).
  const redis = runtime.runSync(Effect.service(Redis.Redis));
  const memory = memoryDriver();
  const subscriptions = new Set<Fiber.Fiber<unknown, unknown>>();

  /** A command on Redis, or the memory store's answer while Redis is down or when it fails. */
  const attempt = <A>(
    command: Effect.Effect<A, Redis.RedisError>,
    fallback: () => MaybePromise<A>,
  ): Promise<A> =>
    link.usable ? runtime.runPromise(command).catch(() => fallback()) : Promise.resolve(fallback());
  const send = <A>(command: string, ...args: ReadonlyArray<string>) => redis.send<A>(command, ...args);
  const text = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

  const scan = (prefixOf: string) =>
    Effect.gen(function* () {
      const found: string[] = [];
      let cursor = "0";
      do {
        const [next, batch] = yield* send<[string, string[]]>(
          "SCAN",
          cursor,
          "MATCH",
          prefixPattern(base + prefixOf),
          "COUNT",
          "500",
        );
        cursor = String(next);
        for (const key of batch) found.push(key.slice(base.length));
      } while (cursor !== "0");
      return found;
    });

  /** Hears `channel` on Redis until interrupted, subscribing again after a broken connection. */
  const listen = (channel: string, listener: (message: string) => void, ready: () => void) =>
    Effect.scoped(
      Effect.gen(function* () {
        const queue = yield* redis.subscribe(channelBase + channel);
        ready();
        while (true) {
          const { message } = yield* Queue.take(queue);
          try {
            listener(message);
          } catch {}
        }
      }),
    ).pipe(
      Effect.catch(() => Effect.andThen(Effect.sync(ready), Effect.sleep(RESUBSCRIBE_MS))),
      Effect.forever,
    );

  return {
    key: storeKey,
    get: (key) => attempt(Effect.map(send("GET", base + key), text), () => memory.get(key)),
    set: (key, value, ttlMs) =>
      attempt(Effect.asVoid(send("SET", base + key, value, "PX", ms(ttlMs))), () =>
        memory.set(key, value, ttlMs),
      ),
    take: (key) => attempt(Effect.map(send("EVAL", TAKE, "1", base + key), text), () => memory.take(key)),
    delete: (key) => attempt(Effect.asVoid(send("DEL", base + key)), () => memory.delete(key)),
    increment: (key, ttlMs) =>
      attempt(Effect.map(send("EVAL", INCREMENT, "1", base + key, ms(ttlMs)), Number), () =>
        memory.increment(key, ttlMs),
      ),
    compareAndSet: (key, expected, value, ttlMs) =>
      attempt(
        Effect.map(
          send(
            "EVAL",
            COMPARE_AND_SET,
            "1",
            base + key,
            expected === undefined ? "0" : "1",
            expected ?? "",
            value === undefined ? "0" : "1",
            value ?? "",
            ms(ttlMs),
          ),
          (changed) => Number(changed) === 1,
        ),
        () => memory.compareAndSet(key, expected, value, ttlMs),
      ),
    keys: (prefixOf) => attempt(scan(prefixOf), () => memory.keys(prefixOf)),
    publish: (channel, message) =>
      attempt(Effect.asVoid(send("PUBLISH", channelBase + channel, message)), () =>
        memory.publish(channel, message),
      ),
    subscribe: (channel, listener) => {
      // Unsubscribed, the listener hears nothing more, even a message already on its way.
      let active = true;
      const hear = (message: string) => {
        if (active) listener(message);
      };
      // While Redis is down messages published here reach the memory store's subscribers.
      const offMemory = memory.subscribe(channel, hear) as () => void;
      return new Promise((resolve) => {
        let fiber: Fiber.Fiber<unknown, unknown> | undefined;
        const off = () => {
          active = false;
          offMemory();
          if (fiber) {
            subscriptions.delete(fiber);
            Effect.runFork(Fiber.interrupt(fiber));
          }
        };
        fiber = runtime.runFork(listen(channel, hear, () => resolve(off)));
        subscriptions.add(fiber);
      });
    },
    status: () => link.status(),
    policyStores: fallbackPolicyStores(link, prefix).pipe(Layer.provide(Layer.succeed(Redis.Redis, redis))),
    close: async () => {
      await Promise.all([...subscriptions].map((fiber) => Effect.runPromise(Fiber.interrupt(fiber))));
      await runtime.dispose();
    },
  };
};
