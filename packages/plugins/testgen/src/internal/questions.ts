import { toJsonSchema } from "@quiver/core";
import { z } from "zod";

/** Difficulty levels. */
export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
/** easy | medium | hard */
export type Difficulty = (typeof DIFFICULTIES)[number];
/** Question types: free-text answers, or options with one correct. */
export const QUESTION_TYPES = ["open", "multiple_choice"] as const;
/** open | multiple_choice */
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A piece of course material: text and where it came from. */
export type Material = Readonly<{ text: string; source?: string | undefined }>;

/** The questions asked for: on what and from which material, how many, how hard, of which type, for which subject. */
export type QuestionAsk = Readonly<{
  topic: string;
  material: ReadonlyArray<Material>;
  count: number;
  difficulty: Difficulty;
  type: QuestionType;
  asignatura?: string | undefined;
}>;

/** One question as the tool returns it. */
export const questionSchema = z.object({
  question: z.string().describe("The question text"),
  type: z.enum(QUESTION_TYPES).describe("Open answer or multiple choice"),
  difficulty: z.enum(DIFFICULTIES).describe("Difficulty"),
  options: z.array(z.string()).describe("Answer options (multiple choice; empty for open questions)"),
  correct_index: z.number().int().optional().describe("Index of the correct option (multiple choice)"),
  correct_answer: z.string().optional().describe("The correct answer, or a model answer for open questions"),
  explanation: z.string().optional().describe("Why the answer is right, citing the material"),
  source: z.string().optional().describe("Where the question comes from (document or sentence)"),
});

/** One question as the tool returns it. */
export type Question = z.output<typeof questionSchema>;

/** One question as the model is asked for it: OpenAI's strict mode wants every field required, no extra fields. */
const strictQuestion = (type: QuestionType) =>
  z.object({
    question: z.string().describe("The question"),
    difficulty: z.enum(DIFFICULTIES),
    options: z
      .array(z.string())
      .describe(type === "multiple_choice" ? "Four answer options" : "Empty: open question"),
    correct_index: z
      .int()
      .nullable()
      .describe("0-based index of the correct option, null for open questions"),
    answer: z.string().describe("The correct answer (open questions: a short model answer)"),
    explanation: z.string().describe("Why it is right, with reference to the material"),
  });

/** The JSON the model is asked for, as OpenAI's strict mode wants it: derived from zod by core's `toJsonSchema`. */
export const llmJsonSchema = (type: QuestionType) =>
  toJsonSchema(z.object({ questions: z.array(strictQuestion(type)) }), "openai");

const text = z.string().trim().min(1);

/** An option as its text (some models send objects). */
const optionText = (o: any) => (o && typeof o === "object" ? (o.answer_text ?? o.text) : o);

/** One question as a model may send it: tolerant of the common field names (`question_text` ...). */
const llmQuestion = z.preprocess(
  (r: any) => {
    if (!r || typeof r !== "object") return r;
    return {
      ...r,
      question: r.question ?? r.question_text ?? r.text,
      options: Array.isArray(r.options) ? r.options.map(optionText) : r.options,
      correct_index: r.correct_index ?? r.answer_index ?? r.correct_option ?? null,
      answer: r.answer ?? r.correct_answer ?? r.expected_answer,
    };
  },
  z.object({
    question: text,
    difficulty: z.enum(DIFFICULTIES).optional(),
    options: z.array(text).nullable().optional(),
    correct_index: z.number().int().nullable().optional(),
    answer: z.union([text, z.number().transform(String)]).optional(),
    explanation: z.string().nullable().optional(),
  }),
);

/** What the model must return: `{questions: [...]}` (a bare array is accepted too). */
const llmResponseSchema = z.preprocess(
  (raw) => (Array.isArray(raw) ? { questions: raw } : raw),
  z.object({ questions: z.array(llmQuestion).min(1) }),
);

/**
 * A reply that should be JSON read as questions, and what is wrong with it (for the repair round):
 * code fences and prose around one object or array are tolerated.
 */
export const readReply = (content: string, ask: Pick<QuestionAsk, "type" | "difficulty">) => {
  let text = content.trim();
  if (text === "") return { questions: [], problem: "the reply was empty" };
  text = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text)?.[1] ?? text;
  if (!text.startsWith("{") && !text.startsWith("[")) {
    const start = text.search(/[[{]/);
    const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
    if (start >= 0 && end > start) text = text.slice(start, end + 1);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { questions: [], problem: `it is not valid JSON (${(error as Error).message})` };
  }
  const checked = llmResponseSchema.safeParse(value);
  if (!checked.success) {
    const issues = checked.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "root"}: ${i.message}`);
    return { questions: [], problem: `it does not match the schema (${issues.join("; ")})` };
  }
  // The model's questions as the tool's, checked for the type asked (options, a valid correct answer), or what is wrong.
  const read = checked.data.questions.map((q, i): Question | string => {
    const choice = ask.type === "multiple_choice";
    const options = choice ? (q.options ?? []) : [];
    // An index out of range is looked up by the answer's text instead.
    const byText = options.findIndex((o) => o.trim().toLowerCase() === q.answer?.trim().toLowerCase());
    const index = options[q.correct_index ?? -1] !== undefined ? q.correct_index! : byText;
    if (choice && options.length < 2) return `questions[${i}] needs at least 2 options`;
    if (choice && index < 0)
      return `questions[${i}].correct_index must be an index into its ${options.length} options`;
    return {
      question: q.question,
      type: ask.type,
      difficulty: q.difficulty ?? ask.difficulty,
      options,
      correct_index: choice ? index : undefined,
      correct_answer: choice ? options[index]! : q.answer,
      explanation: q.explanation?.trim() || undefined,
    };
  });

  const problems = read.filter((q) => typeof q === "string");
  const questions = read.filter((q) => typeof q !== "string");
  return { questions, problem: problems.slice(0, 3).join("; ") || undefined };
};
