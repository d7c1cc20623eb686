import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createRagPlugin, type RagOutput } from "../src/index.js";

// A RAG service of your own: its URL is the switch (and RAG_API_KEY, when it needs one).
const URL_VAR = "RAG_SERVICE_URL";
if (!process.env[URL_VAR])
  console.log(
    `skipped: set ${URL_VAR} (and RAG_API_KEY if the service needs one) to run the live RAG service test`,
  );

describe.runIf(process.env[URL_VAR])("live: RAG service", () => {
  it("POST {RAG_SERVICE_URL}/search: a list of results (an empty one is fine)", async () => {
    const catalog = createCatalog({ env: process.env });
    catalog.register(createRagPlugin());
    try {
      const r = await catalog.call("rag_search", { query: process.env.RAG_LIVE_QUERY ?? "evaluación" });
      expect(r.status, r.message).toBe("success");
      expect(Array.isArray((r.data as RagOutput).results)).toBe(true);
      const key = process.env.RAG_API_KEY;
      if (key) expect(JSON.stringify(r)).not.toContain(key);
    } finally {
      await catalog.close();
    }
  }, 60_000);
});
