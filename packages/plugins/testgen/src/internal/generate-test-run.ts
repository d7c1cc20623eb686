import { outcome, partial, type ToolContext } from "@quiver/core";
import { llmSettings, type TestgenConfig } from "../config.js";
import type { TestgenResources } from "../setup.js";
import type { GenerateTestInput } from "../tools/generate-test.js";
import { askLlm } from "./chat-completions.js";
import { ground } from "./grounding.js";
import { fetchPreferences, type Preferences } from "./preferences.js";
import { buildPrompt } from "./prompt.js";
import { ruleQuestions } from "./rule-questions.js";

/** Defaults when neither the arguments nor the professor's preferences say. */
const DEFAULT_NUM_QUESTIONS = 5;
const DEFAULT_DIFFICULTY = "medium";

/**
 * The body of `testgen_generate_test` (its definition and schemas are in tools/generate-test.ts): kept apart so
 * listing the tool does not load the LLM client, the grounding and the rule-based generator.
 */
export const runGenerateTest = async (
  args: GenerateTestInput,
  ctx: ToolContext<TestgenConfig, TestgenResources>,
) => {
  const asignatura = args.asignatura?.trim() || undefined;
  const needPrefs = args.num_questions === undefined || args.difficulty === undefined;
  const prefs: Preferences =
    needPrefs && asignatura && ctx.config.backendUrl
      ? await fetchPreferences(ctx, ctx.config.backendUrl, asignatura)
      : { status: "skipped" };
  const count = args.num_questions ?? prefs.numQuestions ?? DEFAULT_NUM_QUESTIONS;
  const difficulty = args.difficulty ?? prefs.difficulty ?? DEFAULT_DIFFICULTY;
  const type = args.question_type ?? "open";
  const from = (given: unknown, professor: unknown) =>
    given !== undefined ? "argument" : professor !== undefined ? "professor" : "default";

  const grounding = await ground(args.topic, args.context, asignatura, ctx);
  const base = {
    topic: args.topic,
    asignatura: asignatura ?? null,
    difficulty,
    question_type: type,
    grounding: grounding.kind,
    settings_from: {
      num_questions: from(args.num_questions, prefs.numQuestions),
      difficulty: from(args.difficulty, prefs.difficulty),
    },
  } as const;
  const notes = [
    prefs.status === "failed" ? `professor preferences unavailable (${prefs.note}), defaults used` : "",
    grounding.note ?? "",
  ].filter((n) => n !== "");
  const groundedIn =
    grounding.kind === "context"
      ? "the given material"
      : grounding.kind === "rag"
        ? "course-material search results"
        : "the topic alone (no material)";

  const rules = () =>
    ruleQuestions({ topic: args.topic, material: grounding.material, count, difficulty, type });
  const byRules = (why: string) => {
    const questions = rules();
    const mcNote =
      type === "multiple_choice" && questions.some((q) => q.type === "open")
        ? " Some are open questions: multiple choice needs more material."
        : "";
    return partial(
      { ...base, num_questions: questions.length, questions, generated_by: "rules" as const },
      `${why}: ${questions.length} questions were built without an LLM from ${groundedIn} (key sentences as definition and fill-in questions).${mcNote}${notes.length ? ` Note: ${notes.join("; ")}.` : ""}`,
    );
  };

  const llm = llmSettings(ctx.config);
  if (!llm.ok) return byRules(`No LLM configured (${llm.reason})`);
  ctx.reportPartial(byRules("The LLM did not answer in time").data);
  ctx.progress({ progress: 1, total: 2, message: "asking the LLM" });
  const prompt = buildPrompt({
    topic: args.topic,
    count,
    difficulty,
    type,
    asignatura,
    material: grounding.material,
  });
  const answer = await askLlm(llm, { ...prompt, type, difficulty }, ctx);
  if (!answer.ok) return byRules(`The LLM failed (${answer.reason})`);

  let questions = answer.questions.slice(0, count);
  const short = questions.length < count;
  if (short) questions = [...questions, ...rules().slice(0, count - questions.length)];
  const data = { ...base, num_questions: questions.length, questions, generated_by: "llm" as const };
  const how = `${answer.model} via ${answer.format}${answer.repaired ? " after one repair round" : ""}`;
  const notesText = notes.length ? ` Note: ${notes.join("; ")}.` : "";
  if (short) {
    return partial(
      data,
      `The LLM returned ${answer.questions.length} of ${count} questions; the rest were built without it from ${groundedIn}.${notesText}`,
      { source: how },
    );
  }
  return outcome(data, {
    message: `${questions.length} ${type === "multiple_choice" ? "multiple-choice" : "open"} ${difficulty} questions on "${args.topic}" from ${how}, based on ${groundedIn}.${notesText}`,
    source: how,
  });
};
