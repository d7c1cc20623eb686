import { memoryDriver } from "@quiver/core";
import { describeStoreDriver } from "@quiver/testing";
import { afterAll } from "vitest";
import { redisStore } from "../src/index.js";
import { deleteUnder, REDIS_URL, redisReachable, uniquePrefix } from "./fixtures.js";

const up = await redisReachable();
const prefix = uniquePrefix("conformance");

// One suite, both drivers: the catalog cannot tell them apart.
describeStoreDriver({ name: "memoryDriver", make: () => memoryDriver() });
describeStoreDriver({
  name: "redisStore on the real Redis",
  make: () => redisStore({ url: REDIS_URL, prefix }),
  skip: up ? undefined : `Redis is not reachable at ${REDIS_URL}`,
});

afterAll(async () => {
  if (up) await deleteUnder(prefix);
});
