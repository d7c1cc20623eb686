import { type Catalog, createCatalog } from "@quiver/core";
import { Redacted } from "effect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { redisStore } from "../src/index.js";
import { deleteUnder, keysUnder, makeProbe, REDIS_URL, redisReachable, uniquePrefix } from "./fixtures.js";

const up = await redisReachable();
if (!up) console.log(`skipped: Redis is not reachable at ${REDIS_URL} (start it with scripts/services.sh)`);

const prefixes: string[] = [];
const catalogs: Catalog[] = [];

/** One host replica: its own catalog and its own copy of the plugin, sharing Redis under `prefix`. */
const replica = (prefix: string, ...probe: Parameters<typeof makeProbe>) => {
  const catalog = createCatalog({ env: {}, store: redisStore({ url: Redacted.make(REDIS_URL), prefix }) });
  catalogs.push(catalog);
  const { plugin, state } = makeProbe(...probe);
  catalog.register(plugin);
  return { catalog, state };
};

const freshPrefix = (label: string) => {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  return prefix;
};

afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  if (up) await Promise.all(prefixes.map((p) => deleteUnder(p)));
});

describe.runIf(up)("two replicas on one Redis", () => {
  it("share one rate limit: 2 calls on A and 2 on B, the 4th is rate_limited", async () => {
    const prefix = freshPrefix("ratelimit");
    const policy = { rateLimit: { limit: 3, window: "1 minute" } } as const;
    const a = replica(prefix, policy, { readOnly: true });
    const b = replica(prefix, policy, { readOnly: true });

    const first = await a.catalog.call("probe", { q: "1" });
    const second = await a.catalog.call("probe", { q: "2" });
    const third = await b.catalog.call("probe", { q: "3" });
    const fourth = await b.catalog.call("probe", { q: "4" });

    expect([first.status, second.status, third.status]).toEqual(["success", "success", "success"]);
    expect(fourth.status).toBe("error");
    expect(fourth.error?.kind).toBe("rate_limited");
    expect(fourth.error?.retryAfterMs).toBeGreaterThan(0);
    expect(fourth.error?.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(a.state.runs + b.state.runs).toBe(3);
    expect(b.state.runs).toBe(1);
    // A is over the shared budget too.
    expect((await a.catalog.call("probe", { q: "5" })).error?.kind).toBe("rate_limited");
    expect(await keysUnder(`${prefix}ratelimit:`)).not.toHaveLength(0);
  });

  it("share one circuit breaker: failures on A open the circuit B then answers unavailable without running", async () => {
    const prefix = freshPrefix("breaker");
    const policy = { retry: false, breaker: { failures: 2, openFor: "1 minute" } } as const;
    const a = replica(prefix, policy, { openWorld: true });
    const b = replica(prefix, policy, { openWorld: true });

    // B is healthy and closed to begin with.
    expect((await b.catalog.call("probe", { q: "before" })).status).toBe("success");
    expect(b.state.runs).toBe(1);

    a.state.failures = 2;
    expect((await a.catalog.call("probe", { q: "x" })).error?.kind).toBe("upstream");
    expect((await a.catalog.call("probe", { q: "y" })).error?.kind).toBe("upstream");

    const rejected = await b.catalog.call("probe", { q: "after" });
    expect(rejected.status).toBe("unavailable");
    expect(rejected.error?.kind).toBe("unavailable");
    expect(rejected.error?.retryAfterMs).toBeGreaterThan(0);
    expect(rejected.message).toMatch(/paused after repeated upstream failures/);
    expect(b.state.runs).toBe(1);
    const stats = await b.catalog.stats();
    expect(stats.find((s) => s.tool === "probe")?.breaker).toBe("Open");
    expect(await keysUnder(`${prefix}breaker:`)).not.toHaveLength(0);
  });

  it("keeps replicas with different prefixes apart", async () => {
    const policy = { rateLimit: { limit: 1, window: "1 minute" } } as const;
    const a = replica(freshPrefix("apart-a"), policy, { readOnly: true });
    const b = replica(freshPrefix("apart-b"), policy, { readOnly: true });
    expect((await a.catalog.call("probe", { q: "1" })).status).toBe("success");
    expect((await b.catalog.call("probe", { q: "1" })).status).toBe("success");
    expect((await a.catalog.call("probe", { q: "2" })).error?.kind).toBe("rate_limited");
  });

  it("counts concurrent calls from both replicas exactly", async () => {
    const prefix = freshPrefix("concurrent");
    const policy = { rateLimit: { limit: 5, window: "1 minute" } } as const;
    const a = replica(prefix, policy, { readOnly: true });
    const b = replica(prefix, policy, { readOnly: true });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).catalog.call("probe", { q: String(i) })),
    );
    expect(results.filter((r) => r.status === "success")).toHaveLength(5);
    expect(results.filter((r) => r.error?.kind === "rate_limited")).toHaveLength(7);
    expect(a.state.runs + b.state.runs).toBe(5);
  });
});
