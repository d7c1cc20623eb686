import { createTestgenPlugin } from "./create-testgen-plugin.js";

export type { InjectMode as SessionAsignatura } from "@quiver/core";
export {
  type LlmSettings,
  llmSettings,
  TESTGEN_ENV,
  type TestgenConfig,
  testgenConfigSchema,
} from "./config.js";
export { createTestgenPlugin, type TestgenPluginOptions } from "./create-testgen-plugin.js";
export type { Difficulty, Question, QuestionType } from "./internal/questions.js";
export { type Material, type RuleAsk, ruleQuestions } from "./internal/rule-questions.js";
export {
  DEFAULT_DIFFICULTY,
  DEFAULT_NUM_QUESTIONS,
  type GenerateTestDeps,
  type GenerateTestOutput,
  makeGenerateTestTool,
} from "./tools/generate-test.js";
export { VERSION } from "./version.js";

/**
 * The testgen plugin with settings from the environment (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL,
 * BACKEND_SERVICE_URL); the host imports this default export.
 *
 * @example
 * import testgen from "@quiver/plugin-testgen"
 * catalog.register(testgen)
 */
export default createTestgenPlugin();
