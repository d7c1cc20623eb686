import { describe, expect, it } from "vitest";
import { OPENFDA_LIMITS, RATE_LIMITS } from "../src/internal/policy.js";
import { dataOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

const { up, fdaCatalog } = useOpenFdaEmulator();

const COUNT_BY = [
  "sponsor",
  "route",
  "pharmacologic_class",
  "brand_name",
  "generic_name",
  "active_ingredient",
  "product_type",
];
/** The i-th distinct count call (distinct inputs, so the cache never answers). */
const countCall = (i: number) => ({
  count_by: COUNT_BY[i % COUNT_BY.length],
  max_buckets: 1 + Math.floor(i / COUNT_BY.length),
});

describe("openFDA's documented rate limits", () => {
  it("declares 240 calls a minute and 1,000 a day as two rateLimit entries shared by both tools", () => {
    const catalog = fdaCatalog();
    for (const name of ["fda_search_drugs", "fda_count_drugs"]) {
      expect(catalog.describe(name)!.policy.rateLimit).toEqual([
        { key: "openfda", limit: 240, windowMs: 60_000, perPrincipal: false, onExceeded: "fail" },
        { key: "openfda-day", limit: 1_000, windowMs: 86_400_000, perPrincipal: false, onExceeded: "fail" },
      ]);
    }
    expect(OPENFDA_LIMITS).toEqual({ perMinute: 240, perDayWithoutKey: 1_000, perDayWithKey: 120_000 });
  });

  it("answers the 241st call in a minute with rate_limited and the wait, across both tools", async () => {
    const catalog = fdaCatalog();
    for (let i = 0; i < 240; i++) {
      const r =
        i % 2 === 0
          ? await catalog.call("fda_count_drugs", countCall(i), session)
          : await catalog.call(
              "fda_search_drugs",
              { search_criteria: { brand_name: "Ozempic" } },
              { session: { principal: `p${i}` } },
            );
      expect(r.status, `call ${i}: ${r.message}`).toBe("success");
    }
    const over = await catalog.call("fda_count_drugs", countCall(500), session);
    expect(over.error?.kind).toBe("rate_limited");
    expect(over.error?.retryAfterMs).toBeGreaterThan(0);
    expect(over.error?.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it("answers the 1,001st call in a day with rate_limited and the wait, across both tools", async () => {
    // The per-minute entry would stop the loop at 240: keep only the plugin's own daily entry.
    const daily = RATE_LIMITS.filter((p) => p.key === "openfda-day");
    expect(daily).toHaveLength(1);
    const catalog = fdaCatalog({}, { policies: { "*": { rateLimit: daily } } });
    const before = up.requests.length;
    for (let i = 0; i < 1_000; i++) {
      const r =
        i % 2 === 0
          ? await catalog.call("fda_count_drugs", countCall(i), session)
          : await catalog.call(
              "fda_search_drugs",
              { search_criteria: { brand_name: `Ozempic ${i}` } },
              session,
            );
      if (r.status !== "success") throw new Error(`call ${i}: ${r.message}`);
    }
    expect(up.requests.length - before).toBe(1_000);
    const over = await catalog.call("fda_count_drugs", countCall(1_000), session);
    expect(over.error?.kind).toBe("rate_limited");
    expect(over.message).toContain("1000 calls per day");
    expect(over.error?.retryAfterMs).toBeGreaterThan(60_000);
    expect(over.error?.retryAfterMs).toBeLessThanOrEqual(86_400_000);
    expect(up.requests.length - before).toBe(1_000);
  }, 120_000);

  it("keeps one daily budget per catalog key: a host with a key raises the daily entry through policies", async () => {
    const keyed = RATE_LIMITS.map((p) =>
      p.key === "openfda-day" ? { ...p, limit: OPENFDA_LIMITS.perDayWithKey } : p,
    );
    const catalog = fdaCatalog(
      { apiKey: "a-real-looking-key-123" },
      { policies: { "*": { rateLimit: keyed } } },
    );
    expect(catalog.describe("fda_count_drugs")!.policy.rateLimit?.[1]).toMatchObject({
      key: "openfda-day",
      limit: 120_000,
    });
    const r = await catalog.call("fda_count_drugs", countCall(0), session);
    expect(r.status).toBe("success");
  });

  it("maps openFDA's own 429 OVER_RATE_LIMIT to rate_limited with Retry-After", async () => {
    up.fault("GET", "/drug/drugsfda.json", {
      kind: "status",
      status: 429,
      retryAfter: 7,
      body: {
        error: {
          code: "OVER_RATE_LIMIT",
          message:
            "You have exceeded your rate limit. Try again later or contact us at https://api.fda.gov:443/contact/ for assistance",
        },
      },
    });
    const catalog = fdaCatalog({}, { policies: { "*": { retry: false } } });
    const r = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { brand_name: "Rybelsus" } },
      session,
    );
    expect(r.error?.kind).toBe("rate_limited");
    expect(r.error?.retryAfterMs).toBe(7_000);
    expect(r.message).toContain("exceeded your rate limit");
    expect(dataOf(r)).toBeUndefined();
  });
});
