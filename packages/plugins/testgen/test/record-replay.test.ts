import { createCatalog } from "@quiver/core";
import { type Emulator, recordThenReplay, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestgenPlugin } from "../src/index.js";
import { completion, MATERIAL, mcQuestions, openQuestions } from "./llm-fixtures.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "sk-canary-5a4b3c2d1e0f";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  up.route("POST", "/v1/chat/completions", (req) => {
    const text = JSON.stringify(req.json);
    const n = Number(/Write (\d+)/.exec(text)?.[1] ?? "3");
    return { json: completion(text.includes("multiple-choice") ? mcQuestions(n) : openQuestions(n)) };
  });
});
afterAll(() => up.close());

describe("testgen tool calls recorded and replayed (core's cassette client)", () => {
  it("replay with the network closed gives the recorded envelopes; no key in a cassette", async () => {
    const r = await recordThenReplay({
      emulator: up,
      calls: [
        { topic: "metaheurísticas", num_questions: 3, context: MATERIAL },
        { topic: "metaheurísticas", num_questions: 2, question_type: "multiple_choice", context: MATERIAL },
      ].map((input) => ({ tool: "testgen_generate_test", input })),
      catalog: (http) => {
        const catalog = createCatalog({ http, env: {} });
        catalog.register(createTestgenPlugin(), {
          llmBaseUrl: `${up.url}/v1`,
          llmModel: "test-model",
          llmApiKey: CANARY,
        });
        return catalog;
      },
    });
    expect(r.live.map((e) => e.status)).toEqual(["success", "success"]);
    expect(r.replayed).toEqual(r.live);
    expect(r.upstreamRequestsDuringReplay).toBe(0);
    expect(r.cassettes.length).toBe(2);
    for (const { text } of r.cassettes) {
      expect(text).not.toContain(CANARY);
      expect(text).toContain('"authorization": "[REDACTED]"');
    }
  });
});
