import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createFdaPlugin } from "../src/index.js";

const KEY = process.env.OPENFDA_API_KEY;
if (!KEY) console.log("skipped: set OPENFDA_API_KEY to run the live openFDA test");

describe.runIf(KEY)("live openFDA (api.fda.gov)", () => {
  it("finds semaglutide applications and counts them by sponsor", async () => {
    const catalog = createCatalog({ env: { OPENFDA_API_KEY: KEY } });
    catalog.register(createFdaPlugin());
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
    expect(JSON.stringify([search, count])).not.toContain(KEY!);
    await catalog.close();
  });
});
