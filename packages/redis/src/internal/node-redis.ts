import { Deferred, Duration, Effect, Redacted, type Scope } from "effect";
import { Redis } from "effect/persistence";
import { createClient } from "redis";
import { scrub } from "./redact.js";
import type { RedisUrl } from "./redis-url.js";

/** Socket settings of every connection: bounded connect, no reconnecting on its own. */
interface SocketOptions {
  readonly connectTimeout: number;
  readonly reconnectStrategy: false;
}

/**
 * The part of a node-redis client used here. node-redis' own client type is generic over modules,
 * scripts and RESP version, and its variants do not assign to one another under
 * exactOptionalPropertyTypes; this shape is what the code needs.
 */
export interface NodeRedisClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
  sendCommand(args: Array<string>): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  on(event: "error", listener: (cause: unknown) => void): unknown;
  duplicate(overrides: { readonly socket: SocketOptions }): NodeRedisClient;
}

/** A connected client and the `effect/persistence` Redis service over it. */
export interface NodeRedisConnection {
  readonly redis: Redis.Redis["Service"];
  readonly client: NodeRedisClient;
}

const ignore = () => undefined;

const destroyQuietly = (client: NodeRedisClient) => {
  try {
    client.destroy();
  } catch {
    // Already torn down.
  }
};

/**
 * Connects one node-redis client and builds the `effect/persistence` Redis service over it with
 * `Redis.make({ send, subscribe, connect })`. The client lives as long as the current scope.
 *
 * Why not `@effect/platform-node`'s `NodeRedis.layer` (it exists in 4.1.0, over the same client): it
 * releases the client with node-redis's graceful `close()`, which waits for every pending reply. A
 * Redis that accepts the connection but never answers (its RESP3 `HELLO` handshake included) then
 * holds the release, and with it `catalog.close()`, forever; and the client is created inside the
 * layer, so a timed-out connect cannot reach it to destroy it. Here the client is created first
 * and always released with `destroy()` (pending commands are rejected), connecting is bounded by
 * `timeout`, and the client never reconnects on its own (the caller opens a new one on demand), so a
 * Redis outage costs no background retry loop. Errors are scrubbed of the URL's secrets.
 */
export const makeNodeRedis = (options: {
  readonly url: RedisUrl;
  readonly timeout: Duration.Duration;
}): Effect.Effect<NodeRedisConnection, Redis.RedisError, Scope.Scope> =>
  Effect.gen(function* () {
    const secrets = options.url.secrets;
    const toError = (cause: unknown) => new Redis.RedisError({ cause: scrub(cause, secrets) });
    const connectTimeout = Math.max(1, Math.ceil(Duration.toMillis(options.timeout)));
    const socket: SocketOptions = { connectTimeout, reconnectStrategy: false };

    const client = yield* Effect.acquireRelease(
      Effect.sync(
        (): NodeRedisClient =>
          createClient({ url: Redacted.value(options.url.url), disableOfflineQueue: true, socket }),
      ),
      (c) => Effect.sync(() => destroyQuietly(c)),
    );
    // node-redis rethrows `error` events nobody listens to, which would crash the host. The same
    // failures reach the caller as failed commands, so they are not logged here.
    client.on("error", ignore);
    yield* Effect.tryPromise({ try: () => client.connect(), catch: toError }).pipe(
      Effect.timeoutOrElse({
        duration: options.timeout,
        orElse: () => Effect.fail(toError(new Error("Redis connect timed out"))),
      }),
    );

    const sendWith =
      (target: NodeRedisClient) =>
      <A = unknown>(command: string, ...args: ReadonlyArray<string>) =>
        Effect.tryPromise({
          try: () => target.sendCommand([command, ...args]) as Promise<A>,
          catch: toError,
        });

    const redis = yield* Redis.make({
      send: sendWith(client),
      // Dedicated connections for `reserve` (blocking commands); the stores do not use them.
      connect: Effect.tryPromise({
        try: async () => {
          const connection = client.duplicate({ socket });
          connection.on("error", ignore);
          try {
            await connection.connect();
            return connection;
          } catch (cause) {
            destroyQuietly(connection);
            throw cause;
          }
        },
        catch: toError,
      }).pipe(
        Effect.map((connection) => ({
          send: sendWith(connection),
          close: Effect.sync(() => destroyQuietly(connection)),
        })),
      ),
      subscribe: (channel, onMessage) =>
        Effect.gen(function* () {
          const ended = Deferred.makeUnsafe<void, Redis.RedisError>();
          yield* Effect.acquireRelease(
            Effect.tryPromise({
              try: async () => {
                const subscriber = client.duplicate({ socket });
                subscriber.on("error", (cause: unknown) => {
                  if (!subscriber.isOpen) Deferred.doneUnsafe(ended, Effect.fail(toError(cause)));
                });
                try {
                  await subscriber.connect();
                  await subscriber.subscribe(channel, (message, from) =>
                    onMessage({ channel: from, message }),
                  );
                  return subscriber;
                } catch (cause) {
                  destroyQuietly(subscriber);
                  throw cause;
                }
              },
              catch: toError,
            }),
            (subscriber) => Effect.sync(() => destroyQuietly(subscriber)),
          );
          return Deferred.await(ended);
        }),
    });
    return { redis, client };
  });
