import type { CatalogOptions, RuntimeLog } from "@quiver/core";
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

/** The catalog options for the host's stores: none, or all of them on one Redis. */
export type OpenedStores = Pick<CatalogOptions, "stores" | "shared">;

/**
 * The catalog's stores for the host's `stores` settings: with Redis (through @quiver/redis, after
 * checking it answers, so an unreachable Redis stops the start with a clear message) rate limits and
 * breakers (`stores`) and the shared state, result cache, confirmation tokens, stale results and
 * escalation counts (`shared`), so every replica on that Redis behaves as one; without it nothing
 * (the catalog's in-memory defaults).
 *
 * `log` hears Redis going away and coming back (default: standard error).
 *
 * @example
 * const stores = await openStores({ redis: { url: "redis://127.0.0.1:6379" } })
 * createCatalog({ ...stores })
 */
export const openStores = async (settings: StoreSettings, log?: RuntimeLog): Promise<OpenedStores> => {
  if (!settings.redis) return {};
  await checkRedis(settings.redis.url);
  const { redisSharedStore, redisStores } = await importRedis();
  const options = {
    url: settings.redis.url,
    ...(settings.redis.prefix ? { prefix: settings.redis.prefix } : {}),
    ...(log ? { log } : {}),
  };
  return { stores: redisStores(options), shared: redisSharedStore(options) };
};
