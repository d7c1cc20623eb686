import type { PluginPrompt } from "@quiver/core";
import type { TestgenConfig } from "./config.js";
import { DIFFICULTIES, QUESTION_TYPES } from "./internal/questions.js";
import type { TestgenResources } from "./setup.js";

/** The values of a closed list starting with what was typed, for a prompt argument's completion. */
const startingWith = (values: ReadonlyArray<string>) => (typed: string) =>
  values.filter((v) => v.startsWith(typed.toLowerCase()));

/**
 * The `review_session` prompt: a study session on a topic, in which the assistant quizzes the student
 * with `testgen_generate_test` one question at a time and explains each answer. The question type
 * and difficulty complete from the tool's own values.
 */
export const reviewPrompt: PluginPrompt<TestgenConfig, TestgenResources> = {
  name: "review_session",
  title: "Review a topic with questions",
  description: "Quiz me on a topic with review questions, one at a time, explaining each answer.",
  arguments: [
    { name: "topic", description: "What to review, e.g. 'algoritmos genéticos'", required: true },
    {
      name: "question_type",
      description: "open (default) or multiple_choice",
      complete: startingWith(QUESTION_TYPES),
    },
    { name: "difficulty", description: "easy, medium or hard", complete: startingWith(DIFFICULTIES) },
  ],
  get: ({ topic, question_type, difficulty }) => {
    const options = [
      `topic "${topic}"`,
      QUESTION_TYPES.includes(question_type as never) && `question_type "${question_type}"`,
      DIFFICULTIES.includes(difficulty as never) && `difficulty "${difficulty}"`,
    ].filter(Boolean);
    const text = `I want to review ${topic}. Call testgen_generate_test with ${options.join(", ")}. Then ask me the questions one at a time: wait for my answer to each, tell me whether it is right and why, and go on to the next. At the end, tell me what to study again.`;
    return [{ role: "user", content: { type: "text", text } }];
  },
};
