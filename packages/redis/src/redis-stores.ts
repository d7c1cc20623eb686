import { Duration, Layer, type Redacted } from "effect";
import { CircuitBreaker, RateLimiter } from "effect/persistence";
import { lazyRedisLayer, type RedisLog, redisLogToStderr } from "./internal/lazy-redis.js";
import { parseRedisUrl } from "./internal/redis-url.js";

/** Options of {@link redisStores}. */
export interface RedisStoresOptions {
  /**
   * The Redis server, `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. Pass it as
   * `Redacted` (or a string: it is wrapped at once); the URL and its password never appear in errors or logs.
   */
  readonly url: string | Redacted.Redacted<string>;
  /**
   * Put before every key (default `"quiver:"`). Replicas that share limits and breakers use the same
   * prefix; separate deployments on one Redis use different ones.
   */
  readonly prefix?: string | undefined;
  /**
   * Longest wait for connecting and for each Redis command (default 2 seconds); past it the store
   * reports an error instead of holding the tool call.
   */
  readonly commandTimeout?: Duration.Input | undefined;
  /**
   * Where the stores say Redis went away (once per outage) and came back: `(level, message)`.
   * Default: standard error, never standard output (an MCP stdio server speaks there). A host
   * passes its own log, the one it gives `createCatalog({ log })`.
   */
  readonly log?: RedisLog | undefined;
}

/** The default key prefix. */
export const DEFAULT_PREFIX = "quiver:";

/**
 * Rate limiter and circuit breaker stores in Redis, for `createCatalog({ stores })`: every host
 * replica given the same Redis and prefix shares one budget per rate limit key and one circuit
 * per breaker key.
 *
 * Use it when the host runs as several replicas; a single host needs nothing (stores default to
 * memory). The stores are effect's own `RateLimiter.layerStoreRedis` and
 * `CircuitBreaker.layerStoreRedis` (keys `${prefix}ratelimit:…` and `${prefix}breaker:…`) over a
 * node-redis client. It connects on first use, so a host starts even when Redis is down; while it
 * is down a rate-limited tool answers `unavailable` (retryable) and a breaker lets calls through unrecorded.
 * Throws a `TypeError` (without the URL) when `url` is not a redis URL.
 *
 * @example
 * import { createCatalog } from "@quiver/core"
 * import { redisStores } from "@quiver/redis"
 * import { Redacted } from "effect"
 *
 * const catalog = createCatalog({
 *   stores: redisStores({ url: Redacted.make(process.env.REDIS_URL ?? "redis://127.0.0.1:6379") }),
 * })
 */
export const redisStores = (
  options: RedisStoresOptions,
): Layer.Layer<RateLimiter.RateLimiterStore | CircuitBreaker.CircuitBreakerStore> => {
  const url = parseRedisUrl(options.url);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const timeout = Duration.fromInputUnsafe(options.commandTimeout ?? "2 seconds");
  return Layer.mergeAll(
    RateLimiter.layerStoreRedis({ prefix: `${prefix}ratelimit:` }),
    CircuitBreaker.layerStoreRedis({ prefix: `${prefix}breaker:` }),
  ).pipe(
    Layer.provide(
      lazyRedisLayer({
        url,
        timeout,
        log: options.log ?? redisLogToStderr,
        serves: "rate limits and breakers",
        meanwhile: "rate-limited tools answer `unavailable` and breakers let calls through unrecorded",
      }),
    ),
  );
};
