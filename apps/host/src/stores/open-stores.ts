import type { RuntimeLog, StoreDriver } from "@quiver/core";
import type { StoreSettings } from "../config/host-settings.js";
import { checkRedis } from "./check-redis.js";

/** @quiver/redis is an optional peer: only hosts that configure `stores.redis` install it (and its client). */
const importRedis = async (): Promise<typeof import("@quiver/redis")> => {
  try {
    return await import("@quiver/redis");
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" && String((e as Error).message).includes("@quiver/redis"))
      throw new Error(
        "stores.redis is configured but @quiver/redis is not installed: install it beside @quiver/host (npm install @quiver/redis, or pnpm add @quiver/redis).",
      );
    throw e;
  }
};

/**
 * The catalog's store on the Redis of the host's `stores.redis` settings (through @quiver/redis,
 * after checking it answers, so an unreachable Redis stops the start with a clear message): cached
 * results, confirmation tokens, stale results, escalation counts, rate limits and breakers, so every
 * replica on that Redis behaves as one. Once started, a Redis that goes away is the driver's rule:
 * each replica falls back to its own memory until it is back, reported in `/health` and metrics.
 *
 * `log` hears Redis going away and coming back (default: standard error).
 *
 * @example
 * const store = await openRedisStore({ url: "redis://127.0.0.1:6379" })
 * createCatalog({ store })
 */
export const openRedisStore = async (
  redis: NonNullable<StoreSettings["redis"]>,
  log?: RuntimeLog,
): Promise<StoreDriver> => {
  await checkRedis(redis.url);
  const { redisStore } = await importRedis();
  return redisStore({
    url: redis.url,
    ...(redis.prefix ? { prefix: redis.prefix } : {}),
    ...(log ? { log } : {}),
  });
};
