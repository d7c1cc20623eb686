import type { QuestionAsk } from "./questions.js";

const MAX_MATERIAL_CHARS = 12_000;

/** One chat message. */
export type Message = { readonly role: "system" | "user" | "assistant"; readonly content: string };

/** The system and user messages asking for review questions as JSON. */
export const buildPrompt = (ask: QuestionAsk): Message[] => {
  let budget = MAX_MATERIAL_CHARS;
  const excerpts: string[] = [];
  ask.material.forEach((m, i) => {
    if (budget <= 0) return;
    const text = m.text.trim().slice(0, budget);
    budget -= text.length;
    excerpts.push(`[${i + 1}]${m.source ? ` (${m.source})` : ""} ${text}`);
  });
  const system =
    "You write review questions for university students. Questions test understanding, not trivia, " +
    "and each has one defensible answer. Reply with a single JSON object and nothing else.";
  const kind =
    ask.type === "multiple_choice"
      ? "multiple-choice questions, each with exactly 4 options (one correct, three plausible distractors), correct_index (0-based), answer (the correct option's text) and a short explanation"
      : "open-answer questions, each with options [] and correct_index null, answer (a short model answer) and a short explanation";
  const user = [
    `Write ${ask.count} ${ask.difficulty} ${kind} about: ${ask.topic}.`,
    ask.asignatura ? `Subject (asignatura): ${ask.asignatura}.` : "",
    excerpts.length > 0
      ? `Base every question on the course material below and cite it in the explanation by its number; do not ask about anything it does not contain.\n\nMaterial:\n${excerpts.join("\n\n")}`
      : "No course material is given: keep to the standard content of the topic.",
    "Write the questions in the language of the material (or of the topic when there is none).",
    'JSON format: {"questions": [{"question": string, "difficulty": "easy"|"medium"|"hard", "options": string[], "correct_index": integer|null, "answer": string, "explanation": string}]}',
  ]
    .filter((s) => s !== "")
    .join("\n\n");
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
};
