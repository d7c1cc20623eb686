import { type Catalog, createCatalog, type StoreDriver } from "@quiver/core";
import { hasRedisServer, startRedisServer } from "@quiver/testing";
import { Redacted } from "effect";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { redisStore } from "../src/index.js";
import {
  closedRedisUrl,
  deleteUnder,
  makeProbe,
  REDIS_URL,
  redisReachable,
  silentServer,
  uniquePrefix,
} from "./fixtures.js";

const up = await redisReachable();
if (!up) console.log(`skipped (wrong-password test): Redis is not reachable at ${REDIS_URL}`);
const ownRedis = hasRedisServer();
if (!ownRedis)
  console.log("skipped (outage and recovery test): redis-server and redis-cli are not installed");

const PASSWORD = "hunter2-Quiver-s3cret";
const catalogs: Catalog[] = [];
const prefixes: string[] = [];
let printed: string[] = [];
/** The log every replica here is given (the stores' and the catalog runtime's): lines land in `printed`. */
const log = (level: string, message: string) => {
  printed.push(`${level}: ${message}`);
};

const replica = (
  url: string,
  policy: Parameters<typeof makeProbe>[0],
  annotations: Parameters<typeof makeProbe>[1],
  prefix = uniquePrefix("down"),
) => {
  prefixes.push(prefix);
  const store = redisStore({ url: Redacted.make(url), prefix, commandTimeout: "500 millis", log });
  const catalog = createCatalog({ env: {}, store, log });
  catalogs.push(catalog);
  const { plugin, state } = makeProbe(policy, annotations);
  catalog.register(plugin);
  return { catalog, state, store };
};

const rateLimited = { rateLimit: { limit: 3, window: "1 minute" } } as const;
const breakerOnly = { retry: false, breaker: { failures: 2, openFor: "1 minute" } } as const;

beforeEach(() => {
  printed = [];
});

afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  if (up) await Promise.all(prefixes.map((p) => deleteUnder(p)));
});

describe("Redis down (a closed port)", () => {
  it("builds the catalog and registers plugins without Redis", async () => {
    const { catalog } = replica(await closedRedisUrl(), breakerOnly, { openWorld: true });
    expect(catalog.plugins()[0]?.status).toBe("ready");
    expect(catalog.has("probe")).toBe(true);
  });

  it("limits a rate-limited tool in the replica's own memory, and says so in its status", async () => {
    const { catalog, state, store } = replica(await closedRedisUrl(), rateLimited, { readOnly: true });
    const results = [];
    for (const q of ["1", "2", "3", "4"]) results.push(await catalog.call("probe", { q }));
    expect(results.map((r) => r.status)).toEqual(["success", "success", "success", "error"]);
    expect(results[3]?.error?.kind).toBe("rate_limited");
    expect(state.runs).toBe(3);
    expect(store.status()).toMatchObject({ driver: "redis", state: "fallback", outages: 1 });
  });

  it("keeps a breaker's circuit in the replica's own memory: it still opens", async () => {
    const { catalog, state } = replica(await closedRedisUrl(), breakerOnly, { openWorld: true });
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("success");
    expect(result.data).toEqual({ echo: "x" });
    state.failures = 3;
    for (const q of ["a", "b"]) expect((await catalog.call("probe", { q })).error?.kind).toBe("upstream");
    const paused = await catalog.call("probe", { q: "c" });
    expect(paused.status).toBe("unavailable");
    expect(paused.message).toMatch(/paused after repeated upstream failures/);
    expect(state.runs).toBe(3);
  });

  it("answers quickly and closes quickly", async () => {
    const { catalog } = replica(await closedRedisUrl(), rateLimited, { readOnly: true });
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 3 }, (_, i) => catalog.call("probe", { q: `${i}` })),
    );
    expect(results.every((r) => r.status === "success")).toBe(true);
    expect(performance.now() - started).toBeLessThan(3_000);
    const closing = performance.now();
    await catalogs.splice(0).map((c) => c.close())[0];
    expect(performance.now() - closing).toBeLessThan(2_000);
  });

  it("logs one warning per outage, not one per call", async () => {
    const { catalog } = replica(await closedRedisUrl(), rateLimited, { readOnly: true });
    for (const q of ["a", "b", "c", "d"]) await catalog.call("probe", { q });
    expect(printed.filter((line) => line.includes("Redis is unreachable"))).toHaveLength(1);
    // One line, with its level and the reason.
    expect(printed[0]).toMatch(
      /^warning: Redis is unreachable \(connect ECONNREFUSED [\d.:]+\): until it is back, each replica keeps the store \(cached results, tokens, counts\), its rate limits and breakers in its own memory\.$/,
    );
    expect(printed[0]).not.toContain("\n");
  });

  it("never prints or returns the password of the URL", async () => {
    const url = await closedRedisUrl(`:${PASSWORD}@`);
    const limited = replica(url, rateLimited, { readOnly: true });
    const guarded = replica(url, breakerOnly, { openWorld: true });
    const results = [
      await limited.catalog.call("probe", { q: "x" }),
      await guarded.catalog.call("probe", { q: "x" }),
      await limited.catalog.call("probe", { q: "y" }),
    ];
    expect(results.map((r) => r.status)).toEqual(["success", "success", "success"]);
    const everything = JSON.stringify(results) + printed.join("\n");
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(url);
  });
});

describe("Redis that accepts connections but never answers", () => {
  it("gives up after commandTimeout instead of holding the call", async () => {
    const silent = await silentServer();
    try {
      const { catalog, state } = replica(silent.url, rateLimited, { readOnly: true });
      const started = performance.now();
      const result = await catalog.call("probe", { q: "x" });
      const elapsed = performance.now() - started;
      // Answered from memory once the connection attempt gave up.
      expect(result.status).toBe("success");
      expect(state.runs).toBe(1);
      expect(elapsed).toBeGreaterThanOrEqual(400);
      expect(elapsed).toBeLessThan(2_500);
      // The hung command is rejected on close instead of awaited.
      const closing = performance.now();
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      expect(performance.now() - closing).toBeLessThan(2_000);
    } finally {
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      await silent.close();
    }
  });

  it("lets concurrent calls share one connection attempt", async () => {
    const silent = await silentServer();
    try {
      const { catalog } = replica(silent.url, rateLimited, { readOnly: true });
      const results = await Promise.all(
        Array.from({ length: 3 }, (_, i) => catalog.call("probe", { q: `${i}` })),
      );
      expect(results.every((r) => r.status === "success")).toBe(true);
      expect(silent.connections()).toBe(1);
    } finally {
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      await silent.close();
    }
  });

  it("also gives up when the server hangs in the AUTH handshake of a URL with a password", async () => {
    const silent = await silentServer();
    try {
      const url = silent.url.replace("redis://", `redis://:${PASSWORD}@`);
      const { catalog, state } = replica(url, rateLimited, { readOnly: true });
      const started = performance.now();
      const result = await catalog.call("probe", { q: "x" });
      expect(result.status).toBe("success");
      expect(state.runs).toBe(1);
      expect(performance.now() - started).toBeLessThan(2_500);
      const closing = performance.now();
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      expect(performance.now() - closing).toBeLessThan(2_000);
      expect(JSON.stringify(result) + printed.join("\n")).not.toContain(PASSWORD);
    } finally {
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      await silent.close();
    }
  });
});

describe.runIf(ownRedis)("Redis going away and coming back (a redis-server of the test's own)", () => {
  it("answers every call from memory while it is down, reports the fallback, and shares again once it is back", async () => {
    const redis = await startRedisServer();
    try {
      // Two replicas on one prefix: they share one budget of 3 while Redis answers.
      const prefix = uniquePrefix("outage");
      const a = replica(redis.url, rateLimited, { readOnly: true }, prefix);
      const b = replica(redis.url, rateLimited, { readOnly: true }, prefix);
      expect((await a.catalog.call("probe", { q: "1" })).status).toBe("success");
      expect(a.store.status()).toMatchObject({ state: "ok", outages: 0 });

      await redis.stop();
      // Each replica counts for itself meanwhile: neither refuses a call the shared budget would have.
      for (const q of ["d1", "d2"]) expect((await a.catalog.call("probe", { q })).status).toBe("success");
      for (const q of ["d1", "d2"]) expect((await b.catalog.call("probe", { q })).status).toBe("success");
      expect(a.store.status()).toMatchObject({ driver: "redis", state: "fallback", outages: 1 });

      await redis.start();
      // A command tries Redis again a second after the last failure; the store's own reads drive it.
      const recovered = async (store: StoreDriver) => {
        await store.get("ping");
        return store.status().state;
      };
      await expect.poll(() => recovered(a.store), { timeout: 15_000, interval: 200 }).toBe("ok");
      // The budget is shared again: the restarted server (no persistence) starts it at 3.
      const after = [
        await a.catalog.call("probe", { q: "2" }),
        await b.catalog.call("probe", { q: "3" }),
        await a.catalog.call("probe", { q: "4" }),
        await b.catalog.call("probe", { q: "5" }),
      ];
      expect(after.map((r) => r.status)).toEqual(["success", "success", "success", "error"]);
      expect(after[3]?.error?.kind).toBe("rate_limited");
      expect(a.store.status()).toMatchObject({ state: "ok", outages: 1 });
      // One warning per outage (the connection lost) and one line when it is back, per replica.
      expect(printed.filter((line) => line.includes("Redis connection lost")).length).toBeGreaterThanOrEqual(
        1,
      );
      expect(
        printed.filter((line) => line.includes("Redis is reachable again")).length,
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      await redis.stop();
    }
  });
});

describe.runIf(up)("a Redis that refuses the password", () => {
  it("keeps a wrong password out of envelopes and logs", async () => {
    const { hostname, port } = new URL(REDIS_URL);
    // No such ACL user: the real server refuses AUTH (WRONGPASS) whatever its own password setting.
    const url = `redis://quiver-no-such-user:${PASSWORD}@${hostname}:${port || 6379}`;
    const { catalog, state } = replica(url, rateLimited, { readOnly: true });
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("success");
    expect(state.runs).toBe(1);
    const everything = JSON.stringify(result) + printed.join("\n");
    expect(everything).not.toContain(PASSWORD);
  });
});
