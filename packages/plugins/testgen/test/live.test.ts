import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createTestgenPlugin, type GenerateTestOutput } from "../src/index.js";
import { MATERIAL } from "./llm-fixtures.js";

// OpenAI with LLM_API_KEY (LLM_MODEL chooses the model, e.g. a reasoning model such as gpt-5-mini), or
// any OpenAI-compatible server with LLM_BASE_URL and LLM_MODEL.
const ON = process.env.LLM_API_KEY || (process.env.LLM_BASE_URL && process.env.LLM_MODEL);
if (!ON)
  console.log("skipped: set LLM_API_KEY (OpenAI), or LLM_BASE_URL and LLM_MODEL, to run the live LLM test");

describe.runIf(ON)("live: OpenAI-compatible LLM", () => {
  it("POST {LLM_BASE_URL}/chat/completions: questions written by the LLM", async () => {
    const catalog = createCatalog({ env: process.env });
    catalog.register(createTestgenPlugin());
    try {
      const r = await catalog.call("testgen_generate_test", {
        topic: "metaheurísticas",
        num_questions: 2,
        question_type: "multiple_choice",
        context: MATERIAL,
      });
      expect(r.status, r.message).toBe("success");
      expect((r.data as GenerateTestOutput).generated_by).toBe("llm");
      const key = process.env.LLM_API_KEY;
      if (key) expect(JSON.stringify(r)).not.toContain(key);
    } finally {
      await catalog.close();
    }
  }, 180_000);
});
