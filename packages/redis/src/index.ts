export { DEFAULT_PREFIX, type RedisStoresOptions, redisStores } from "./redis-stores.js";
export { VERSION } from "./version.js";
