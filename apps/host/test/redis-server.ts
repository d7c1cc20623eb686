// The Redis of a test's own lives in @quiver/testing, beside the other services the suites start.
export { hasRedisServer, redisCli, startRedisServer } from "@quiver/testing";
