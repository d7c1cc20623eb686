import pkg from "../package.json" with { type: "json" };

export type { RedisLog } from "./internal/lazy-redis.js";
export { type RedisSharedStoreOptions, redisSharedStore } from "./redis-shared-store.js";

export { DEFAULT_PREFIX, type RedisStoresOptions, redisStores } from "./redis-stores.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
