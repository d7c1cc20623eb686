import pkg from "../package.json" with { type: "json" };

export type { RedisLog } from "./internal/redis-link.js";
export { DEFAULT_PREFIX, type RedisStoreOptions, redisStore } from "./redis-store.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
