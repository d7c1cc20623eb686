import { createCatalog } from "@quiver/core";
import { describeRecordReplay, startEmulator } from "@quiver/testing";
import { createTestgenPlugin } from "../src/index.js";
import { completion, MATERIAL, mcQuestions, openQuestions } from "./llm-fixtures.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "sk-canary-5a4b3c2d1e0f";

describeRecordReplay({
  title: "testgen tool calls",
  start: async () => {
    const up = await startEmulator();
    up.route("POST", "/v1/chat/completions", (req) => {
      const text = JSON.stringify(req.json);
      const n = Number(/Write (\d+)/.exec(text)?.[1] ?? "3");
      return { json: completion(text.includes("multiple-choice") ? mcQuestions(n) : openQuestions(n)) };
    });
    return up;
  },
  catalog: (http, up) => {
    const catalog = createCatalog({ http, env: {} });
    catalog.register(createTestgenPlugin(), {
      llmBaseUrl: `${up.url}/v1`,
      llmModel: "test-model",
      llmApiKey: CANARY,
    });
    return catalog;
  },
  calls: [
    { topic: "metaheurísticas", num_questions: 3, context: MATERIAL },
    { topic: "metaheurísticas", num_questions: 2, question_type: "multiple_choice", context: MATERIAL },
  ].map((input) => ({ tool: "testgen_generate_test", input })),
  statuses: ["success", "success"],
  canary: CANARY,
  cassettesContain: ['"authorization": "[REDACTED]"'],
});
