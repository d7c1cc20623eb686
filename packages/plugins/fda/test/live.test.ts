import { useCatalog } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createFdaPlugin } from "../src/index.js";

// openFDA answers without a key too (1,000 requests a day), so OPENFDA_LIVE=1 opts in without one.
const KEY = process.env.OPENFDA_API_KEY;
const LIVE = Boolean(KEY) || process.env.OPENFDA_LIVE === "1";
if (!LIVE) console.log("skipped: set OPENFDA_API_KEY or OPENFDA_LIVE=1 to run the live openFDA test");

const makeCatalog = useCatalog({ env: KEY ? { OPENFDA_API_KEY: KEY } : {} });
const liveCatalog = () => {
  const catalog = makeCatalog();
  catalog.register(createFdaPlugin());
  return catalog;
};

describe.runIf(LIVE)("live openFDA (api.fda.gov)", () => {
  it("finds semaglutide applications and counts them by sponsor", async () => {
    const catalog = liveCatalog();
    const search = await catalog.call("fda_search_drugs", {
      search_criteria: { active_ingredient: "semaglutide" },
    });
    expect(search.status).toBe("success");
    expect((search.data as { total_count: number }).total_count).toBeGreaterThan(0);
    const count = await catalog.call("fda_count_drugs", {
      search_criteria: { active_ingredient: "semaglutide" },
      count_by: "sponsor",
    });
    expect(count.status).toBe("success");
    if (KEY) expect(JSON.stringify([search, count])).not.toContain(KEY);
  });

  it("finds a sponsor by the name people use (Novo Nordisk), with the fields it matched on", async () => {
    const catalog = liveCatalog();
    const r = await catalog.call("fda_search_drugs", {
      search_criteria: { sponsor: "Novo Nordisk", active_ingredient: "semaglutide" },
    });
    expect(r.status, r.message).toBe("success");
    const d = r.data as { total_count: number; matches: Array<{ sponsor?: string }> };
    expect(d.total_count).toBeGreaterThan(0);
    for (const m of d.matches) expect(m.sponsor).toMatch(/NOVO/);
    expect(r.metadata.searched_fields).toMatchObject({
      sponsor: ["sponsor_name", "openfda.manufacturer_name"],
    });
  });

  it("searches accented and trademarked values without openFDA refusing them", async () => {
    const catalog = liveCatalog();
    const accented = await catalog.call("fda_search_drugs", {
      search_criteria: { indication: "Sjögren's syndrome" },
    });
    expect(accented.status, accented.message).toBe("success");
    const brand = await catalog.call("fda_search_drugs", { search_criteria: { brand_name: "Ozempic®" } });
    expect(brand.status, brand.message).toBe("success");
    expect((brand.data as { total_count: number }).total_count).toBeGreaterThan(0);
  });
});
