import { type Catalog, createCatalog } from "@quiver/core";
import { Redacted } from "effect";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { redisStores } from "../src/index.js";
import {
  closedRedisUrl,
  deleteUnder,
  makeProbe,
  REDIS_URL,
  redisProxy,
  redisReachable,
  silentServer,
  uniquePrefix,
} from "./fixtures.js";

const up = await redisReachable();
if (!up) console.log(`skipped (recovery and wrong-password tests): Redis is not reachable at ${REDIS_URL}`);

const PASSWORD = "hunter2-Quiver-s3cret";
const catalogs: Catalog[] = [];
const prefixes: string[] = [];
let printed: string[] = [];
/** The log every replica here is given (the stores' and the catalog runtime's): lines land in `printed`. */
const log = (level: string, message: string) => {
  printed.push(`${level}: ${message}`);
};

const replica = (url: string, ...probe: Parameters<typeof makeProbe>) => {
  const prefix = uniquePrefix("down");
  prefixes.push(prefix);
  const catalog = createCatalog({
    env: {},
    stores: redisStores({ url: Redacted.make(url), prefix, commandTimeout: "500 millis", log }),
    log,
  });
  catalogs.push(catalog);
  const { plugin, state } = makeProbe(...probe);
  catalog.register(plugin);
  return { catalog, state };
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

  it("answers a rate-limited tool with a retryable unavailable envelope, without running it", async () => {
    const { catalog, state } = replica(await closedRedisUrl(), rateLimited, { readOnly: true });
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("unavailable");
    expect(result.error?.kind).toBe("unavailable");
    expect(result.error?.retryable).toBe(true);
    expect(result.error?.message).toMatch(/rate limiter.s store failed/);
    expect(state.runs).toBe(0);
  });

  it("lets a breaker-guarded tool run (the breaker's onStoreError default, allow)", async () => {
    const { catalog, state } = replica(await closedRedisUrl(), breakerOnly, { openWorld: true });
    const result = await catalog.call("probe", { q: "x" });
    expect(result.status).toBe("success");
    expect(result.data).toEqual({ echo: "x" });
    expect(state.runs).toBe(1);
    // Failures are not recorded while the store is down: the circuit never opens.
    state.failures = 3;
    for (const q of ["a", "b", "c"])
      expect((await catalog.call("probe", { q })).error?.kind).toBe("upstream");
    expect((await catalog.call("probe", { q: "d" })).status).toBe("success");
    expect(state.runs).toBe(5);
  });

  it("answers quickly and closes quickly", async () => {
    const { catalog } = replica(await closedRedisUrl(), rateLimited, { readOnly: true });
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 5 }, () => catalog.call("probe", { q: "x" })));
    expect(results.every((r) => r.error?.kind === "unavailable")).toBe(true);
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
      /^warning: Redis is unreachable for rate limits and breakers \(connect ECONNREFUSED [\d.:]+\): until it is back, rate-limited tools answer/,
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
    expect(results[0]?.error?.kind).toBe("unavailable");
    expect(results[1]?.status).toBe("success");
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
      expect(result.error?.kind).toBe("unavailable");
      expect(state.runs).toBe(0);
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
      const results = await Promise.all(Array.from({ length: 6 }, () => catalog.call("probe", { q: "x" })));
      expect(results.every((r) => r.error?.kind === "unavailable")).toBe(true);
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
      expect(result.error?.kind).toBe("unavailable");
      expect(state.runs).toBe(0);
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

describe.runIf(up)("Redis going away and coming back", () => {
  it("fails calls while it is down and shares state again once it is back, without a restart", async () => {
    const proxy = await redisProxy();
    try {
      await proxy.stop();
      const { catalog, state } = replica(proxy.url, rateLimited, { readOnly: true });
      expect((await catalog.call("probe", { q: "down" })).error?.kind).toBe("unavailable");
      await proxy.start();
      expect((await catalog.call("probe", { q: "1" })).status).toBe("success");
      expect((await catalog.call("probe", { q: "2" })).status).toBe("success");
      // Connected: now take it away mid-life.
      await proxy.stop();
      const during = await catalog.call("probe", { q: "gone" });
      expect(during.error?.kind).toBe("unavailable");
      await proxy.start();
      let back = await catalog.call("probe", { q: "3" });
      for (let i = 0; i < 20 && back.error?.kind === "unavailable"; i++) {
        await new Promise((r) => setTimeout(r, 150));
        back = await catalog.call("probe", { q: "3" });
      }
      expect(back.status).toBe("success");
      // One warning per outage (connect refused, then connection lost) and one line when it is back.
      expect(printed.filter((line) => line.includes("Redis is unreachable"))).toHaveLength(1);
      expect(printed.filter((line) => line.includes("Redis connection lost"))).toHaveLength(1);
      expect(printed.filter((line) => line.includes("Redis is reachable again"))).toHaveLength(2);
      // The budget of 3 kept counting in Redis across the outage.
      expect((await catalog.call("probe", { q: "4" })).error?.kind).toBe("rate_limited");
      expect(state.runs).toBe(3);
    } finally {
      await Promise.all(catalogs.splice(0).map((c) => c.close()));
      await proxy.stop();
    }
  });

  it("keeps a wrong password out of envelopes and logs", async () => {
    const { hostname, port } = new URL(REDIS_URL);
    // No such ACL user: the real server refuses AUTH (WRONGPASS) whatever its own password setting.
    const url = `redis://quiver-no-such-user:${PASSWORD}@${hostname}:${port || 6379}`;
    const { catalog, state } = replica(url, rateLimited, { readOnly: true });
    const result = await catalog.call("probe", { q: "x" });
    expect(result.error?.kind).toBe("unavailable");
    expect(state.runs).toBe(0);
    const everything = JSON.stringify(result) + printed.join("\n");
    expect(everything).not.toContain(PASSWORD);
  });
});
