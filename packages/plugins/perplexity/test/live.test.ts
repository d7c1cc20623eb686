import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";

const KEY = "PERPLEXITY_API_KEY";
if (!process.env[KEY]) console.log(`skipped: set ${KEY} to run the live Perplexity test`);

describe.runIf(process.env[KEY])("live: Perplexity", () => {
  for (const api of ["search", "chat"] as const) {
    it(`${api} API answers with citations`, async () => {
      const catalog = createCatalog({ env: process.env });
      catalog.register(createPerplexityPlugin({ api }));
      try {
        const r = await catalog.call(
          "perplexity_search_web",
          { query: "What is the capital of France?", max_results: 3 },
          { session: { id: "live" } },
        );
        expect(r.status, r.message).toBe("success");
        const data = r.data as { citations: string[]; results: unknown[]; answer?: string };
        expect(data.citations.length).toBeGreaterThan(0);
        if (api === "chat") expect(data.answer).toMatch(/Paris/);
        expect(JSON.stringify(r)).not.toContain(process.env[KEY]!);
      } finally {
        await catalog.close();
      }
    }, 90_000);
  }
});
