import { outcome, partial } from "@quiver/core";
import { llmSettings, type TestgenContext } from "../config.js";
import type { GenerateTestInput } from "../tools/generate-test.js";
import { askLlm } from "./chat-completions.js";
import { ground } from "./grounding.js";
import { fetchPreferences, type Preferences } from "./preferences.js";
import { ruleQuestions } from "./rule-questions.js";

const GROUNDED_IN = {
  context: "the given material",
  rag: "course-material search results",
  none: "the topic alone (no material)",
} as const;

/** The steps reported as progress: preferences and material, the LLM's batch, the answer checked. */
const STEPS = 3;

const from = (given: unknown, professor: unknown) =>
  given !== undefined ? "argument" : professor !== undefined ? "professor" : "default";

/**
 * The body of `testgen_generate_test` (its definition and schemas are in tools/generate-test.ts): kept apart so
 * listing the tool does not load the LLM client, the grounding and the rule-based generator.
 */
export const runGenerateTest = async (args: GenerateTestInput, ctx: TestgenContext) => {
  const step = (progress: number, message: string) => ctx.progress({ progress, total: STEPS, message });
  const asignatura = args.asignatura?.trim() || undefined;
  step(0, "reading the professor's preferences and the material");
  const needPrefs = args.num_questions === undefined || args.difficulty === undefined;
  const prefs: Preferences = needPrefs && asignatura ? await fetchPreferences(ctx, asignatura) : {};
  // Neither the arguments nor the professor's preferences say: 5 questions, medium.
  const count = args.num_questions ?? prefs.numQuestions ?? 5;
  const difficulty = args.difficulty ?? prefs.difficulty ?? "medium";
  const type = args.question_type ?? "open";

  const grounding = await ground(args.topic, args.context, asignatura, ctx);
  const base = {
    asignatura,
    grounding: grounding.kind,
    settings_from: {
      num_questions: from(args.num_questions, prefs.numQuestions),
      difficulty: from(args.difficulty, prefs.difficulty),
    },
  } as const;
  const notes = [
    prefs.failed && `professor preferences unavailable (${prefs.failed}), defaults used`,
    grounding.note,
  ].filter(Boolean);
  const notesText = notes.length ? ` Note: ${notes.join("; ")}.` : "";
  const groundedIn = GROUNDED_IN[grounding.kind];

  const ask = { topic: args.topic, material: grounding.material, count, difficulty, type, asignatura };
  const byRules = (why: string) => {
    const questions = ruleQuestions(ask);
    // Rules make multiple choice only where the material gives options.
    const mcNote = questions.some((q) => q.type !== type)
      ? " Some are open questions: multiple choice needs more material."
      : "";
    return partial(
      { ...base, questions, generated_by: "rules" as const },
      `${why}: ${questions.length} questions were built without an LLM from ${groundedIn} (key sentences as definition and fill-in questions).${mcNote}${notesText}`,
    );
  };

  const llm = llmSettings(ctx.config);
  if (!llm.ok) return byRules(`No LLM configured (${llm.reason})`);
  ctx.reportPartial(byRules("The LLM did not answer in time").data);
  step(1, `asking the LLM for ${count} questions`);
  const answer = await askLlm(llm, ask, ctx);
  if (!answer.ok) return byRules(`The LLM failed (${answer.reason})`);
  step(2, `the LLM answered ${answer.questions.length} questions`);

  const given = answer.questions.slice(0, count);
  // Fewer than asked: the rest built by rules.
  const missing = count - given.length;
  const questions = missing > 0 ? [...given, ...ruleQuestions(ask).slice(0, missing)] : given;
  const data = { ...base, questions, generated_by: "llm" as const };
  const how = `${answer.model} via ${answer.format}${answer.repaired ? " after one repair round" : ""}`;
  if (missing > 0)
    return partial(
      data,
      `The LLM returned ${answer.questions.length} of ${count} questions; the rest were built without it from ${groundedIn}.${notesText}`,
      { source: how },
    );
  return outcome(data, {
    message: `${questions.length} ${type === "multiple_choice" ? "multiple-choice" : "open"} ${difficulty} questions on "${args.topic}" from ${how}, based on ${groundedIn}.${notesText}`,
    source: how,
  });
};
