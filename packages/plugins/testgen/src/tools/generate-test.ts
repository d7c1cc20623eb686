import { defineToolWith } from "@quiver/core";
import { z } from "zod";
import type { TestgenConfig } from "../config.js";
import { DIFFICULTIES, QUESTION_TYPES, questionSchema } from "../internal/questions.js";
import type { TestgenResources } from "../setup.js";

const input = z.object({
  topic: z
    .string()
    .trim()
    .min(2)
    .max(300)
    .describe("What the questions are about, e.g. 'algoritmos genéticos'."),
  num_questions: z
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
    .enum(QUESTION_TYPES)
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
const settingsFrom = z.object({ num_questions: source, difficulty: source });
const output = z.object({
  asignatura: z.string().optional().describe("The subject used, when there is one"),
  questions: z.array(questionSchema).describe("The questions, each with its type and difficulty"),
  generated_by: z.enum(["llm", "rules"]).describe("llm, or rules when built without an LLM"),
  grounding: z.enum(["context", "rag", "none"]).describe("What the questions are based on"),
  settings_from: settingsFrom.describe("Where count and difficulty came from"),
});

/** Course material for the first example. */
const EXAMPLE_MATERIAL =
  "Una metaheurística es un método de búsqueda de alto nivel que guía heurísticas subordinadas para explorar el espacio de soluciones. " +
  "La búsqueda local mejora una solución explorando su vecindario hasta alcanzar un óptimo local. " +
  "Los algoritmos genéticos mantienen una población de soluciones que evoluciona mediante selección, cruce y mutación.";

/** The arguments of `testgen_generate_test`, as its run receives them. */
export type GenerateTestInput = z.output<typeof input>;

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
    { input: { topic: "metaheurísticas", num_questions: 3, context: EXAMPLE_MATERIAL } },
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
  // A batch waits on the LLM for minutes: it may run as a task, reporting its steps as progress; the
  // deadline is past the timeout, so the timeout's answer (the rule-built questions) is the one kept.
  task: { support: "optional", deadline: "180s" },
  instruction:
    "Ask the questions one at a time. Do not reveal correct answers or explanations until the student has " +
    "answered; then correct them using the explanation.",
  // The body (LLM client, grounding, rules) is loaded at the first call, not when the tool is listed.
  run: (args, ctx) => import("../internal/generate-test-run.js").then((m) => m.runGenerateTest(args, ctx)),
});
