import { definePlugin, type InjectMode, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { llmSettings, testgenConfigSchema } from "./config.js";
import { reviewPrompt } from "./review-prompt.js";
import { generateTest } from "./tools/generate-test.js";

export type { TestgenConfig } from "./config.js";
export type { Difficulty, Question, QuestionType } from "./internal/questions.js";
export type { TestgenResources } from "./setup.js";
export type { GenerateTestOutput } from "./tools/generate-test.js";

/**
 * Options of `createTestgenPlugin`: defaults for the settings (environment and host config win), and
 * how the session's `asignatura` is used (default `default`): `default` keeps the field visible and
 * fills it from the session when left out; `override` hides it and always takes the session's value.
 */
export type TestgenPluginOptions = PluginOptions<typeof testgenConfigSchema> & {
  readonly sessionAsignatura?: InjectMode;
};

/**
 * Creates the testgen plugin: one tool, `testgen_generate_test`, backed by any OpenAI-compatible chat
 * completions endpoint, with a rule-based fallback when there is none or it fails.
 *
 * @example
 * catalog.register(createTestgenPlugin({ llmBaseUrl: "http://localhost:11434/v1", llmModel: "qwen2.5:7b" }))
 * await catalog.call("testgen_generate_test", { topic: "algoritmos genéticos", question_type: "multiple_choice" })
 */
export const createTestgenPlugin = (options: TestgenPluginOptions = {}) => {
  const { sessionAsignatura = "default", ...defaults } = options;
  return definePlugin({
    id: "testgen",
    version: pkg.version,
    description:
      "Review questions from an OpenAI-compatible LLM, grounded in course material; a rule-based fallback.",
    instructions:
      "Use testgen_generate_test when a student asks to be quizzed or to review a topic, passing the material when you have it; not to answer a question nor to grade a student's answers.",
    config: testgenConfigSchema,
    defaults,
    tools: [{ ...generateTest, inject: { asignatura: { from: "asignatura", mode: sessionAsignatura } } }],
    prompts: [reviewPrompt],
    // Loaded at the first call, not at import: `quiver list` never sets a registration up.
    setup: () => import("./setup.js").then((m) => m.setupTestgen()),
    health: async ({ config: c, http, signal }) => {
      const llm = llmSettings(c);
      const fix = "Set LLM_BASE_URL and LLM_MODEL for LLM questions.";
      if (!llm.ok) return { ok: true, message: `Rule-based questions only: ${llm.reason}.`, fix };
      const origin = new URL(llm.url).origin;
      const models = llm.url.replace(/\/chat\/completions$/, "/models");
      return http.request({ url: models, signal, timeoutMs: 5000, bearer: llm.apiKey }).then(
        () => ({ ok: true, message: `LLM endpoint ${origin} answers (model ${llm.model}).` }),
        (error: Error) => ({
          ok: false,
          message: `LLM endpoint ${origin} failed: ${error.message}. Questions fall back to rules.`,
          fix: "Check LLM_BASE_URL, LLM_API_KEY and that the server is running.",
        }),
      );
    },
  });
};

/**
 * The testgen plugin with settings from the environment (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL,
 * BACKEND_SERVICE_URL); the host imports this default export.
 *
 * @example
 * import testgen from "@quiver/plugin-testgen"
 * catalog.register(testgen)
 */
export default createTestgenPlugin();
