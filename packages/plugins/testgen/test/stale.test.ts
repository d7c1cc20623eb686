import { describeStaleFallback, startEmulator } from "@quiver/testing";
import { createTestgenPlugin } from "../src/index.js";
import { completion, MATERIAL, openQuestions } from "./llm-fixtures.js";
import { routeOpenAiChat } from "./openai-chat-emulator.js";

// testgen_generate_test writes new questions for each request (it is not idempotent: a student asking
// again wants other questions), so the last good answer is no answer for the next request and the tool
// declares no stale fallback. While the LLM is down it builds questions from the material by rules: a
// `partial` answer that says the LLM failed, never the earlier questions marked stale.
describeStaleFallback({
  upstream: "the LLM",
  plugin: createTestgenPlugin,
  start: async () => {
    const up = await startEmulator();
    routeOpenAiChat(up, "/v1/chat/completions", () => ({ json: completion(openQuestions(3)) }));
    return {
      up,
      options: { llmBaseUrl: `${up.url}/v1`, llmModel: "test-model", llmApiKey: "sk-test-1a2b3c4d5e" },
    };
  },
  tool: "testgen_generate_test",
  input: { topic: "metaheurísticas", num_questions: 3, context: MATERIAL },
  afterMs: 10 * 60_000,
  noStale: {
    reason: "questions are written fresh for each request",
    status: "partial",
    message: /^The LLM failed \(.*503.*\): 3 questions were built without an LLM/,
  },
});
