import type { CatalogOptions } from "@quiver/core";
import type { StoreSettings } from "../config/host-settings.js";
import { checkRedis } from "./check-redis.js";

/**
 * The catalog's rate limit and circuit breaker stores for the host's `stores` settings: Redis
 * (through @quiver/redis, after checking it answers, so an unreachable Redis stops the start with a
 * clear message) or undefined for the catalog's in-memory default.
 *
 * @example
 * const stores = await openStores({ redis: { url: "redis://127.0.0.1:6379" } })
 * createCatalog({ ...(stores ? { stores } : {}) })
 */
export const openStores = async (settings: StoreSettings): Promise<CatalogOptions["stores"]> => {
  if (!settings.redis) return undefined;
  await checkRedis(settings.redis.url);
  const { redisStores } = await import("@quiver/redis");
  return redisStores({
    url: settings.redis.url,
    ...(settings.redis.prefix ? { prefix: settings.redis.prefix } : {}),
  });
};
