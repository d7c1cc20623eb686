import { Context, Effect, Layer } from "effect";
import { CircuitBreaker, RateLimiter, type Redis } from "effect/persistence";
import type { RedisLink } from "./redis-link.js";

/** An error of the store itself (Redis failed), not an answer such as an open circuit. */
const storeFailed = (error: { readonly reason: { readonly _tag: string } }) =>
  error.reason._tag === "RateLimitStoreError" || error.reason._tag === "CircuitBreakerStoreError";

/**
 * Runs `onRedis` while Redis is usable and `onMemory` when it is not or when the Redis store itself
 * fails: the Redis-down rule for rate limits and breakers (memory per replica until Redis answers).
 */
const either = <A, E extends { readonly reason: { readonly _tag: string } }, R1, R2>(
  link: RedisLink,
  onRedis: () => Effect.Effect<A, E, R1>,
  onMemory: () => Effect.Effect<A, E, R2>,
): Effect.Effect<A, E, R1 | R2> =>
  Effect.suspend(() => (link.usable ? Effect.catchIf(onRedis(), storeFailed, () => onMemory()) : onMemory()));

/**
 * effect's own Redis `RateLimiterStore` (`layerStoreRedis`), and its memory store for while Redis is
 * down. Not a copy of either: every method is theirs, this only chooses which one answers.
 */
const rateLimiterStore = (link: RedisLink, prefix: string) =>
  Layer.effect(
    RateLimiter.RateLimiterStore,
    Effect.gen(function* () {
      const redis = Context.get(
        yield* Layer.build(RateLimiter.layerStoreRedis({ prefix })),
        RateLimiter.RateLimiterStore,
      );
      const memory = Context.get(
        yield* Layer.build(RateLimiter.layerStoreMemory),
        RateLimiter.RateLimiterStore,
      );
      return RateLimiter.RateLimiterStore.of({
        fixedWindow: (o) =>
          either(
            link,
            () => redis.fixedWindow(o),
            () => memory.fixedWindow(o),
          ),
        tokenBucket: (o) =>
          either(
            link,
            () => redis.tokenBucket(o),
            () => memory.tokenBucket(o),
          ),
        adaptiveConsume: (o) =>
          either(
            link,
            () => redis.adaptiveConsume(o),
            () => memory.adaptiveConsume(o),
          ),
        adaptiveFeedback: (o) =>
          either(
            link,
            () => redis.adaptiveFeedback(o),
            () => memory.adaptiveFeedback(o),
          ),
      });
    }),
  );

/**
 * effect's own Redis `CircuitBreakerStore`, and its memory store for while Redis is down. An
 * admission made by the memory store carries a negative generation (`-1 - g`), so its outcome is
 * recorded where it was admitted even if Redis came back meanwhile.
 */
const circuitBreakerStore = (link: RedisLink, prefix: string) =>
  Layer.effect(
    CircuitBreaker.CircuitBreakerStore,
    Effect.gen(function* () {
      const redis = Context.get(
        yield* Layer.build(CircuitBreaker.layerStoreRedis({ prefix })),
        CircuitBreaker.CircuitBreakerStore,
      );
      const memory = Context.get(
        yield* Layer.build(CircuitBreaker.layerStoreMemory()),
        CircuitBreaker.CircuitBreakerStore,
      );
      const fromMemory = (key: string) =>
        Effect.map(memory.admit(key), (admission) => ({
          ...admission,
          generation: -1 - admission.generation,
        }));
      return CircuitBreaker.CircuitBreakerStore.of({
        admit: (key) =>
          either(
            link,
            () => redis.admit(key),
            () => fromMemory(key),
          ),
        record: (o) =>
          o.generation < 0
            ? memory.record({ ...o, generation: -1 - o.generation })
            : // Admitted by Redis: recorded there, or lost if Redis went away during the call.
              Effect.catchIf(redis.record(o), storeFailed, () => Effect.succeed(undefined)),
        state: (key) =>
          either(
            link,
            () => redis.state(key),
            () => memory.state(key),
          ),
      });
    }),
  );

/** Rate limits and breakers on Redis under `prefix`, falling back to memory while it is down. */
export const fallbackPolicyStores = (
  link: RedisLink,
  prefix: string,
): Layer.Layer<RateLimiter.RateLimiterStore | CircuitBreaker.CircuitBreakerStore, never, Redis.Redis> =>
  Layer.mergeAll(
    rateLimiterStore(link, `${prefix}ratelimit:`),
    circuitBreakerStore(link, `${prefix}breaker:`),
  );
