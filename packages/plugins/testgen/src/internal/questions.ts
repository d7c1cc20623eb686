import { z } from "zod";

/** Difficulty levels. */
export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
/** easy | medium | hard */
export type Difficulty = (typeof DIFFICULTIES)[number];
/** open | multiple_choice */
export type QuestionType = "open" | "multiple_choice";

/** One question as the tool returns it. */
export const questionSchema = z.object({
  question: z.string().describe("The question text"),
  type: z.enum(["open", "multiple_choice"]).describe("Open answer or multiple choice"),
  difficulty: z.enum(DIFFICULTIES).describe("Difficulty"),
  options: z.array(z.string()).describe("Answer options (multiple choice; empty for open questions)"),
  correct_index: z.number().int().nullable().describe("Index of the correct option (multiple choice)"),
  correct_answer: z.string().nullable().describe("The correct answer, or a model answer for open questions"),
  explanation: z.string().nullable().describe("Why the answer is right, citing the material"),
  source: z.string().nullable().describe("Where the question comes from (document or sentence)"),
});

/** One question as the tool returns it. */
export type Question = z.output<typeof questionSchema>;

/** The JSON the model is asked for (strict-mode friendly: every field required, no extra fields). */
export const llmJsonSchema = (type: QuestionType): Record<string, unknown> => ({
  type: "object",
  additionalProperties: false,
  required: ["questions"],
  properties: {
    questions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["question", "difficulty", "options", "correct_index", "answer", "explanation"],
        properties: {
          question: { type: "string", description: "The question" },
          difficulty: { type: "string", enum: [...DIFFICULTIES] },
          options: {
            type: "array",
            items: { type: "string" },
            description: type === "multiple_choice" ? "Four answer options" : "Empty: open question",
          },
          correct_index: {
            type: ["integer", "null"],
            description: "0-based index of the correct option, null for open questions",
          },
          answer: {
            type: "string",
            description: "The correct answer (open questions: a short model answer)",
          },
          explanation: { type: "string", description: "Why it is right, with reference to the material" },
        },
      },
    },
  },
});

const text = z.string().trim().min(1);

/** One question as a model may send it: tolerant of the common field names (`question_text` ...). */
const llmQuestion = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== "object") return raw;
    const r = raw as Record<string, unknown>;
    const options = Array.isArray(r.options)
      ? r.options.map((o) =>
          o && typeof o === "object"
            ? ((o as Record<string, unknown>).answer_text ?? (o as Record<string, unknown>).text)
            : o,
        )
      : r.options;
    return {
      ...r,
      question: r.question ?? r.question_text ?? r.text,
      options,
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
export const llmResponseSchema = z.preprocess(
  (raw) => (Array.isArray(raw) ? { questions: raw } : raw),
  z.object({ questions: z.array(llmQuestion).min(1) }),
);

/** The model's questions as the tool's, checked for the type asked: options and a valid correct answer. */
export const fromLlm = (
  raw: z.output<typeof llmResponseSchema>,
  type: QuestionType,
  difficulty: Difficulty,
): { readonly questions: Question[]; readonly problems: string[] } => {
  const questions: Question[] = [];
  const problems: string[] = [];
  for (const [i, q] of raw.questions.entries()) {
    const choice = type === "multiple_choice";
    const options = choice ? (q.options ?? []) : [];
    let index = choice ? (q.correct_index ?? null) : null;
    if (choice && (index === null || index < 0 || index >= options.length) && q.answer) {
      const found = options.findIndex((o) => o.trim().toLowerCase() === q.answer!.trim().toLowerCase());
      index = found >= 0 ? found : index;
    }
    if (choice && options.length < 2) {
      problems.push(`questions[${i}] needs at least 2 options`);
      continue;
    }
    if (choice && (index === null || index < 0 || index >= options.length)) {
      problems.push(`questions[${i}].correct_index must be an index into its ${options.length} options`);
      continue;
    }
    questions.push({
      question: q.question,
      type,
      difficulty: q.difficulty ?? difficulty,
      options,
      correct_index: index,
      correct_answer: index === null ? (q.answer ?? null) : options[index]!,
      explanation: q.explanation?.trim() || null,
      source: null,
    });
  }
  return { questions, problems };
};
