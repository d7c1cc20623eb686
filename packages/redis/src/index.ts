export { type RedisSharedStoreOptions, redisSharedStore } from "./redis-shared-store.js";
export { DEFAULT_PREFIX, type RedisStoresOptions, redisStores } from "./redis-stores.js";
export { VERSION } from "./version.js";
