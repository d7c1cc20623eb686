import { defineToolWith, outcome, partial } from "@quiver/core";
import { z } from "zod";
import { llmSettings, type TestgenConfig } from "../config.js";
import { askLlm } from "../internal/chat-completions.js";
import { ground } from "../internal/grounding.js";
import { fetchPreferences, type Preferences } from "../internal/preferences.js";
import { buildPrompt } from "../internal/prompt.js";
import { DIFFICULTIES, questionSchema } from "../internal/questions.js";
import { ruleQuestions } from "../internal/rule-questions.js";
import type { TestgenResources } from "../setup.js";

/** Defaults when neither the arguments nor the professor's preferences say. */
const DEFAULT_NUM_QUESTIONS = 5;
const DEFAULT_DIFFICULTY = "medium";

const input = z.object({
  topic: z
    .string()
    .trim()
    .min(2)
    .max(300)
    .describe("What the questions are about, e.g. 'algoritmos genéticos'."),
  num_questions: z
    .number()
    .int()
    .min(1)
    .max(10)
    .optional()
    .describe("How many questions, 1 to 10 (default: the professor's preference for the subject, else 5)."),
  difficulty: z
    .enum(DIFFICULTIES)
    .optional()
    .describe("easy, medium or hard (default: the professor's preference for the subject, else medium)."),
  question_type: z
    .enum(["open", "multiple_choice"])
    .optional()
    .describe(
      "open (default): free-text answers; multiple_choice: 4 options with the correct answer and an explanation.",
    ),
  context: z
    .string()
    .max(20_000)
    .optional()
    .describe(
      "Course material to base the questions on. Leave it out to use course-material search results when available.",
    ),
  asignatura: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "The subject, for the professor's preferences and the material search. Leave it out to use the student's current subject.",
    ),
});

const source = z.enum(["argument", "professor", "default"]);
const output = z.object({
  topic: z.string().describe("The topic asked for"),
  asignatura: z.string().nullable().describe("The subject used"),
  difficulty: z.enum(DIFFICULTIES).describe("Difficulty used"),
  question_type: z.enum(["open", "multiple_choice"]).describe("Question type used"),
  num_questions: z.number().int().describe("How many questions there are"),
  questions: z.array(questionSchema).describe("The questions"),
  generated_by: z.enum(["llm", "rules"]).describe("llm, or rules when built without an LLM"),
  grounding: z.enum(["context", "rag", "none"]).describe("What the questions are based on"),
  settings_from: z
    .object({ num_questions: source, difficulty: source })
    .describe("Where count and difficulty came from"),
});

/** What `testgen_generate_test` returns. */
export type GenerateTestOutput = z.output<typeof output>;

/**
 * `testgen_generate_test`: review questions on a topic from an OpenAI-compatible LLM, grounded in
 * course material, with a rule-based fallback. The session's `asignatura` fills the field when the
 * model leaves it out (`createTestgenPlugin({ sessionAsignatura: "override" })` hides it instead).
 *
 * @example
 * await catalog.call("testgen_generate_test", { topic: "algoritmos genéticos", question_type: "multiple_choice" })
 */
export const generateTest = defineToolWith<TestgenConfig, TestgenResources>()({
  name: "testgen_generate_test",
  title: "Review questions",
  description:
    "Generates review questions on a topic for a student to practise: open questions, or multiple-choice with " +
    "the correct answer and an explanation; based on the given course material or on course-material search " +
    "results. Count and difficulty default to the subject's professor's preferences. Use this when a student " +
    "asks to be tested, quizzed or to review a topic.",
  category: "education",
  input,
  output,
  examples: [
    {
      input: {
        topic: "metaheurísticas",
        num_questions: 3,
        context:
          "Una metaheurística es un método de búsqueda de alto nivel que guía heurísticas subordinadas para explorar el espacio de soluciones. " +
          "La búsqueda local mejora una solución explorando su vecindario hasta alcanzar un óptimo local. " +
          "Los algoritmos genéticos mantienen una población de soluciones que evoluciona mediante selección, cruce y mutación.",
      },
    },
    {
      input: {
        topic: "Turing machines",
        num_questions: 2,
        difficulty: "easy",
        question_type: "multiple_choice",
      },
    },
  ],
  annotations: { readOnly: true, idempotent: false, openWorld: true },
  policy: { timeout: "150s", retry: false, cache: false, maxOutputChars: 30_000 },
  instruction:
    "Ask the questions one at a time. Do not reveal correct answers or explanations until the student has " +
    "answered; then correct them using the explanation.",
  inject: { asignatura: { from: "asignatura", mode: "default" } },
  run: async (args, ctx) => {
    const asignatura = args.asignatura?.trim() || undefined;
    const needPrefs = args.num_questions === undefined || args.difficulty === undefined;
    const prefs: Preferences =
      needPrefs && asignatura && ctx.config.backendUrl
        ? await fetchPreferences(
            ctx.http,
            ctx.config.backendUrl,
            asignatura,
            ctx.config.preferencesTimeoutMs,
            ctx.signal,
          )
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
    const answer = await askLlm(
      llm,
      ctx.config,
      ctx.http,
      ctx.signal,
      { ...prompt, type, difficulty },
      ctx.resources.noJsonSchema,
    );
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
  },
});
