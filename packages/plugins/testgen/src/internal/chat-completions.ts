import { fail, ToolFailure } from "@quiver/core";
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import { z } from "zod";
import type { LlmEndpoint, TestgenContext } from "../config.js";
import { llmJsonSchema, type QuestionAsk, readReply } from "./questions.js";

const MAX_MATERIAL_CHARS = 12_000;

/** The system and user messages asking for review questions as JSON. */
const buildPrompt = (ask: QuestionAsk) => {
  let budget = MAX_MATERIAL_CHARS;
  const excerpts = ask.material.flatMap((m, i) => {
    if (budget <= 0) return [];
    const text = m.text.trim().slice(0, budget);
    budget -= text.length;
    return [`[${i + 1}]${m.source ? ` (${m.source})` : ""} ${text}`];
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

/** Why the model gave no questions (the caller falls back to rules). */
const failed = (reason: string) => ({ ok: false, reason }) as const;

const choiceSchema = z.object({
  message: z.object({
    content: z.string().nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(z.object({ function: z.object({ arguments: z.string() }) })).optional(),
  }),
  finish_reason: z.string().nullish(),
});
const completionSchema = z.object({ model: z.string().optional(), choices: z.array(choiceSchema).min(1) });

/** Waits between retries when the LLM gives no Retry-After: 0.25 s, then doubling. */
const RETRY_BASE_MS = 250;

/** An answer that says "try again later": 429, or a 5xx the client marks retryable. */
const saysRetryLater = (error: unknown): error is ToolFailure =>
  ToolFailure.isInstance(error) &&
  (error.kind === "rate_limited" || (error.isRetryable && error.status !== undefined && error.status >= 500));

/**
 * Runs `send`, retrying up to `config.llmRetries` times when the LLM answers 429 or 5xx, after its
 * Retry-After (else a short backoff), while the wait ends within `llmTimeoutMs` of the first request:
 * the tool itself is not retried by the runtime (it is not idempotent), so this is its only retry.
 * Each request has `llmTimeoutMs` to complete: past it, it is aborted (through the signal `send` gets)
 * and the outcome is a timeout. The waits and the deadline are Effect's (Schedule, timeout) on the
 * catalog's `clock`, so a test clock moves them.
 */
const withRetries = <T>(ctx: TestgenContext, send: (abort: AbortSignal) => Promise<T>) => {
  const { config, clock, signal } = ctx;
  const budgetEnds = clock.currentTimeMillisUnsafe() + config.llmTimeoutMs;
  const schedule = Schedule.exponential(RETRY_BASE_MS).pipe(
    Schedule.modifyDelay(({ duration, input, now }) => {
      const waitMs =
        (ToolFailure.isInstance(input) ? input.retryAfterMs : undefined) ?? Duration.toMillis(duration);
      // A wait that ends past the budget is not taken: the LLM's answer is the outcome.
      return now + waitMs > budgetEnds ? Effect.fail(input) : Effect.succeed(waitMs);
    }),
    Schedule.upTo({ times: config.llmRetries }),
  );
  const timedOut = () =>
    Effect.fail(fail.timeout(`the LLM did not complete the request within ${config.llmTimeoutMs} ms`));
  return Effect.tryPromise({ try: send, catch: (error) => error }).pipe(
    Effect.timeoutOrElse({ duration: config.llmTimeoutMs, orElse: timedOut }),
    Effect.retry({ schedule, while: saysRetryLater }),
    Effect.provideService(Clock.Clock, clock),
    (attempts) => Effect.runPromise(attempts, { signal }),
  );
};

/**
 * Asks an OpenAI-compatible chat completions endpoint for questions as structured JSON: json_schema
 * (strict) first, json_object when the server rejects json_schema (a 400 about response_format);
 * validates the reply with zod and gives the model one repair round when it is malformed. Never
 * throws for upstream trouble: it answers `{ ok: false, reason }` so the caller can fall back.
 * A configured `temperature` the server refuses as unsupported is dropped and the request sent once
 * more without it. `memory` (the registration's, from `setup`) remembers per endpoint what was
 * rejected, so later calls do not repeat the refused request.
 */
export const askLlm = async (llm: LlmEndpoint, ask: QuestionAsk, ctx: TestgenContext) => {
  const { config, http, resources: memory } = ctx;
  // What an endpoint refused is remembered (`memory`), so each request is built from it.
  const auto = config.responseFormat === "auto";
  const formatNow = () =>
    auto ? (memory.noJsonSchema.has(llm.url) ? "json_object" : "json_schema") : config.responseFormat;

  const json_schema = { name: "review_questions", strict: true, schema: llmJsonSchema(ask.type) };
  const post = { method: "POST", url: llm.url, bearer: llm.apiKey, apiKeyVar: "LLM_API_KEY" } as const;
  const messages = buildPrompt(ask);
  const send = async () => {
    for (;;) {
      // Sent only when configured: OpenAI's o-series and GPT-5 models refuse any temperature but their default.
      const temperature = memory.noTemperature.has(llm.url) ? undefined : config.llmTemperature;
      const format = formatNow();
      const response_format = format === "json_schema" ? { type: format, json_schema } : { type: format };
      const json = { model: llm.model, messages, temperature, response_format };
      // Aborted by the call's signal and by the deadline on the catalog's clock (withRetries).
      const res = await withRetries(ctx, (signal) =>
        http.request({ ...post, json, signal, acceptStatus: [400, 422] }),
      );
      if (res.status < 300) return res.json(completionSchema);
      const said = res.body.slice(0, 500);
      // Each refusal is retried once: the next request leaves out what was refused.
      if (temperature !== undefined && refusesTemperature(res.body)) memory.noTemperature.add(llm.url);
      else if (auto && format === "json_schema" && /response_format|schema/i.test(said))
        memory.noJsonSchema.add(llm.url);
      else return failed(`the LLM rejected the request (HTTP ${res.status}: ${oneLine(said)})`);
    }
  };

  try {
    for (let round = 0; ; round++) {
      const completion = await send();
      if (!("choices" in completion)) return completion;
      const { message, finish_reason } = completion.choices[0]!;
      const model = completion.model ?? llm.model;
      if (message.refusal) return failed(`the model refused: ${oneLine(message.refusal)}`);
      if (finish_reason === "content_filter") return failed("the reply was blocked by the content filter");
      const content = message.content ?? message.tool_calls?.[0]?.function.arguments ?? "";
      const cutOff = finish_reason === "length";
      const { questions, problem: bad } = readReply(content, ask);
      const problem = [cutOff && "the reply was cut off before the end", bad].filter(Boolean).join(" and ");
      if (!problem || (round === 1 && questions.length > 0))
        return { ok: true as const, questions, format: formatNow(), repaired: round > 0, model };
      if (round === 1) return failed(`the model's reply was unusable after one repair round: ${problem}`);
      const shorter = cutOff ? ", keeping each field short" : "";
      const again = `Your reply was not usable: ${problem}. Reply again with only the complete JSON object {"questions": [...]} as specified${shorter}, and nothing else.`;
      messages.push({ role: "assistant", content: content.slice(0, 8000) }, { role: "user", content: again });
    }
  } catch (error) {
    if (ToolFailure.isInstance(error)) return failed(`the LLM request failed: ${error.message}`);
    throw error;
  }
};

const openAiError = z.object({
  error: z.object({ message: z.string().nullish(), param: z.string().nullish(), code: z.string().nullish() }),
});

/**
 * True when an OpenAI-style error body refuses `temperature`: `error.param` with code
 * `unsupported_value` or `unsupported_parameter` (OpenAI), or an "Unsupported value: 'temperature' …"
 * message (servers that copy the message but leave `param` null).
 */
const refusesTemperature = (body: string): boolean => {
  try {
    const { message, param, code } = openAiError.parse(JSON.parse(body)).error;
    if (param && /^unsupported_(?:value|parameter)$/.test(code ?? "")) return param === "temperature";
    return /^Unsupported (?:value|parameter): 'temperature'/.test(message ?? "");
  } catch {
    return false;
  }
};

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 300);
