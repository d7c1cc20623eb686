import { Duration, Effect, Exit, Fiber, Layer, Queue, Scope, Semaphore } from "effect";
import { Redis } from "effect/persistence";
import { makeNodeRedis, type NodeRedisConnection } from "./node-redis.js";
import type { RedisLink } from "./redis-link.js";
import type { RedisUrl } from "./redis-url.js";

/** What went wrong, in one line: the cause's message (already scrubbed of the URL's secrets). */
const reason = (error: Redis.RedisError): string =>
  error.cause instanceof Error ? error.cause.message : String(error.cause);

/** Settings of the lazily connected Redis service. */
export interface LazyRedisOptions {
  readonly url: RedisUrl;
  /** Limit for connecting and for each command. */
  readonly timeout: Duration.Duration;
  /** Told when a connection fails or is made (it logs the outage and the recovery, once each). */
  readonly link: RedisLink;
}

interface Connection extends NodeRedisConnection {
  readonly scope: Scope.Closeable;
}

class CommandTimeout extends Error {
  override readonly name = "CommandTimeout";
}

/**
 * The `effect/persistence` Redis service, connected on first use instead of when the layer is built.
 *
 * The Quiver catalog builds its store layer synchronously (it makes breakers with `runSync` when a
 * plugin registers) and expects it never to fail, so a host must start, register plugins and answer
 * calls with Redis unreachable. Here a command made while Redis is down fails with a `RedisError`
 * (the stores turn it into their store errors) and the next command connects again: calls waiting
 * at the same moment share one connection attempt. A command that times out, or finds its
 * connection dropped, discards the connection, so a hung or restarted Redis is left behind.
 */
export const lazyRedisLayer = (options: LazyRedisOptions): Layer.Layer<Redis.Redis> =>
  Layer.effect(
    Redis.Redis,
    Effect.gen(function* () {
      const parent = yield* Effect.scope;
      const lock = Semaphore.makeUnsafe(1);
      let current: Connection | undefined;
      let attempt: Fiber.Fiber<Connection, Redis.RedisError> | undefined;

      const open = Effect.gen(function* () {
        const scope = yield* Scope.fork(parent);
        const made = yield* makeNodeRedis(options).pipe(
          Scope.provide(scope),
          Effect.onError(() => Scope.close(scope, Exit.void)),
        );
        const connection: Connection = { ...made, scope };
        current = connection;
        options.link.reached();
        return connection;
      }).pipe(
        Effect.tapError((error) => Effect.sync(() => options.link.lost("unreachable", reason(error)))),
        Effect.ensuring(
          Effect.sync(() => {
            attempt = undefined;
          }),
        ),
      );

      const connection: Effect.Effect<Connection, Redis.RedisError> = Effect.suspend(() => {
        if (current) return Effect.succeed(current);
        return lock
          .withPermit(
            Effect.suspend(() => {
              if (attempt) return Effect.succeed(attempt);
              return Effect.map(Effect.forkIn(open, parent), (fiber) => {
                attempt = fiber;
                return fiber;
              });
            }),
          )
          .pipe(
            Effect.flatMap((fiber) =>
              current
                ? Effect.succeed(current)
                : Fiber.join(fiber).pipe(
                    // Forget a finished attempt even if it ended before it was recorded.
                    Effect.onExit(() =>
                      Effect.sync(() => {
                        if (attempt === fiber) attempt = undefined;
                      }),
                    ),
                  ),
            ),
          );
      });

      const discard = (c: Connection, error: Redis.RedisError) =>
        Effect.suspend(() => {
          if (current !== c) return Effect.void;
          current = undefined;
          options.link.lost("lost", reason(error));
          return Scope.close(c.scope, Exit.void);
        });

      const use = <A>(command: (redis: Redis.Redis["Service"]) => Effect.Effect<A, Redis.RedisError>) =>
        Effect.flatMap(connection, (c) =>
          command(c.redis).pipe(
            Effect.timeoutOrElse({
              duration: options.timeout,
              orElse: () =>
                Effect.fail(
                  new Redis.RedisError({
                    cause: new CommandTimeout(
                      `Redis command timed out after ${Duration.format(options.timeout)}`,
                    ),
                  }),
                ),
            }),
            Effect.tapError((error) =>
              error.cause instanceof CommandTimeout || !c.client.isOpen ? discard(c, error) : Effect.void,
            ),
          ),
        );

      return Redis.Redis.of({
        send: <A = unknown>(command: string, ...args: ReadonlyArray<string>) =>
          use((redis) => redis.send<A>(command, ...args)),
        eval:
          (script) =>
          (...params) =>
            use((redis) => redis.eval(script)(...params)),
        subscribe: (channel) =>
          Effect.matchEffect(connection, {
            onSuccess: (c) => c.redis.subscribe(channel),
            onFailure: (error) =>
              Effect.tap(Queue.unbounded<Redis.RedisMessage, Redis.RedisError>(), (queue) =>
                Queue.fail(queue, error),
              ),
          }),
        reserve: Effect.flatMap(connection, (c) => c.redis.reserve),
      });
    }),
  );
