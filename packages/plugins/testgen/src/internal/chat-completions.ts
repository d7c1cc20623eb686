import { fail, type ToolContext, ToolFailure } from "@quiver/core";
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Schedule from "effect/Schedule";
import { z } from "zod";
import type { LlmSettings, TestgenConfig } from "../config.js";
import type { TestgenResources } from "../setup.js";
import {
  type Difficulty,
  fromLlm,
  llmJsonSchema,
  llmResponseSchema,
  type Question,
  type QuestionType,
} from "./questions.js";

/** What to ask the model for. */
export interface LlmAsk {
  readonly system: string;
  readonly user: string;
  readonly type: QuestionType;
  readonly difficulty: Difficulty;
}

/** The model's questions, or why there are none. */
export type LlmOutcome =
  | {
      readonly ok: true;
      readonly questions: Question[];
      readonly format: "json_schema" | "json_object";
      readonly repaired: boolean;
      readonly model: string;
    }
  | { readonly ok: false; readonly reason: string };

type Message = { readonly role: "system" | "user" | "assistant"; readonly content: string };

const completionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          refusal: z.string().nullable().optional(),
          tool_calls: z.array(z.object({ function: z.object({ arguments: z.string() }) })).optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

/** Parses a reply that should be JSON: tolerates code fences and prose around one object or array. */
export const parseJsonReply = (
  content: string,
): { ok: true; value: unknown } | { ok: false; problem: string } => {
  let text = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text);
  if (fenced) text = fenced[1]!;
  if (!text.startsWith("{") && !text.startsWith("[")) {
    const start = text.search(/[[{]/);
    const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
    if (start >= 0 && end > start) text = text.slice(start, end + 1);
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
};

class Rejected extends Error {}

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
const withRetries = <T>(
  config: TestgenConfig,
  clock: Clock.Clock,
  signal: AbortSignal,
  send: (abort: AbortSignal) => Promise<T>,
): Promise<T> => {
  const budgetEnds = clock.currentTimeMillisUnsafe() + config.llmTimeoutMs;
  const schedule = Schedule.exponential(RETRY_BASE_MS).pipe(
    Schedule.modifyDelay(({ duration, input, now }) => {
      const waitMs =
        ToolFailure.isInstance(input) && input.retryAfterMs !== undefined
          ? input.retryAfterMs
          : Duration.toMillis(duration);
      // A wait that ends past the budget is not taken: the LLM's answer is the outcome.
      return now + waitMs > budgetEnds ? Effect.fail(input) : Effect.succeed(waitMs);
    }),
    Schedule.upTo({ times: config.llmRetries }),
  );
  const attempt = Effect.tryPromise({ try: (abort) => send(abort), catch: (error) => error }).pipe(
    Effect.timeoutOrElse({
      duration: config.llmTimeoutMs,
      orElse: () =>
        Effect.fail(fail.timeout(`the LLM did not complete the request within ${config.llmTimeoutMs} ms`)),
    }),
  );
  return Effect.runPromise(
    attempt.pipe(
      Effect.retry({ schedule, while: saysRetryLater }),
      Effect.provideService(Clock.Clock, clock),
    ),
    { signal },
  );
};

/**
 * Asks an OpenAI-compatible chat completions endpoint for questions as structured JSON: json_schema
 * (strict) first, json_object when the server rejects json_schema (a 400 about response_format);
 * validates the reply with zod and gives the model one repair round when it is malformed. Never
 * throws for upstream trouble: it answers `{ ok: false, reason }` so the caller can fall back.
 * Optional parameters (`temperature`, only when configured) that the server refuses as unsupported are
 * dropped and the request is sent once more without them. `memory` (the registration's, from `setup`)
 * remembers per endpoint what was rejected, so later calls do not repeat the refused request.
 */
export const askLlm = async (
  settings: Extract<LlmSettings, { ok: true }>,
  ask: LlmAsk,
  ctx: Pick<
    ToolContext<TestgenConfig, TestgenResources>,
    "config" | "http" | "clock" | "signal" | "resources"
  >,
): Promise<LlmOutcome> => {
  const { config, http, clock, signal, resources: memory } = ctx;
  const { noJsonSchema } = memory;
  const refused = memory.refusedParams.get(settings.url) ?? new Set<string>();
  memory.refusedParams.set(settings.url, refused);
  // Sent only when configured: OpenAI's o-series and GPT-5 models refuse any temperature but their default.
  const optional = (): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries({ temperature: config.llmTemperature }).filter(
        ([name, value]) => value !== undefined && !refused.has(name),
      ),
    );
  let retriedWithout = false;
  let format: "json_schema" | "json_object" =
    config.responseFormat === "auto"
      ? noJsonSchema.has(settings.url)
        ? "json_object"
        : "json_schema"
      : config.responseFormat;

  const send = async (messages: ReadonlyArray<Message>) => {
    for (;;) {
      const response_format =
        format === "json_schema"
          ? {
              type: "json_schema",
              json_schema: { name: "review_questions", strict: true, schema: llmJsonSchema(ask.type) },
            }
          : { type: "json_object" };
      const res = await withRetries(config, clock, signal, (abort) =>
        http.request({
          method: "POST",
          url: settings.url,
          bearer: settings.apiKey,
          json: { model: settings.model, messages, ...optional(), response_format },
          // Aborted by the call's signal and by the deadline on the catalog's clock (withRetries).
          signal: abort,
          acceptStatus: [400, 422],
          apiKeyVar: "LLM_API_KEY",
        }),
      );
      if (res.status < 300) return completionSchema.parse(res.json());
      const said = res.body.slice(0, 500);
      const unsupported = unsupportedParam(res.body);
      if (!retriedWithout && unsupported !== undefined && unsupported in optional()) {
        // One retry without the parameter the server names; remembered for this endpoint.
        retriedWithout = true;
        refused.add(unsupported);
        continue;
      }
      if (
        format === "json_schema" &&
        config.responseFormat === "auto" &&
        /response_format|json_schema|schema/i.test(said)
      ) {
        noJsonSchema.add(settings.url);
        format = "json_object";
        continue;
      }
      throw new Rejected(`the LLM rejected the request (HTTP ${res.status}: ${oneLine(said)})`);
    }
  };

  const messages: Message[] = [
    { role: "system", content: ask.system },
    { role: "user", content: ask.user },
  ];
  let repaired = false;
  try {
    for (let round = 0; round < 2; round++) {
      const completion = await send(messages);
      const choice = completion.choices[0]!;
      const model = completion.model ?? settings.model;
      if (choice.message.refusal)
        return { ok: false, reason: `the model refused: ${oneLine(choice.message.refusal)}` };
      if (choice.finish_reason === "content_filter")
        return { ok: false, reason: "the reply was blocked by the content filter" };
      const content = choice.message.content ?? choice.message.tool_calls?.[0]?.function.arguments ?? "";
      let problem: string | undefined;
      let questions: Question[] = [];
      if (content.trim() === "") problem = "the reply was empty";
      else {
        const parsed = parseJsonReply(content);
        if (!parsed.ok) problem = parsed.problem;
        else {
          const checked = llmResponseSchema.safeParse(parsed.value);
          if (!checked.success) {
            problem = `it does not match the schema (${checked.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join(".") || "root"}: ${i.message}`)
              .join("; ")})`;
          } else {
            const result = fromLlm(checked.data, ask.type, ask.difficulty);
            questions = result.questions;
            if (result.problems.length > 0) problem = result.problems.slice(0, 3).join("; ");
          }
        }
      }
      if (choice.finish_reason === "length")
        problem = `the reply was cut off before the end${problem ? ` and ${problem}` : ""}`;
      if (!problem) return { ok: true, questions, format, repaired, model };
      if (round === 1) {
        return questions.length > 0
          ? { ok: true, questions, format, repaired, model }
          : { ok: false, reason: `the model's reply was unusable after one repair round: ${problem}` };
      }
      repaired = true;
      messages.push(
        { role: "assistant", content: content.slice(0, 8000) },
        {
          role: "user",
          content: `Your reply was not usable: ${problem}. Reply again with only the complete JSON object {"questions": [...]} as specified${
            choice.finish_reason === "length" ? ", keeping each field short" : ""
          }, and nothing else.`,
        },
      );
    }
  } catch (error) {
    if (error instanceof Rejected) return { ok: false, reason: error.message };
    if (error instanceof z.ZodError)
      return { ok: false, reason: "the LLM answered in an unexpected shape (no choices[].message)" };
    if (ToolFailure.isInstance(error))
      return { ok: false, reason: `the LLM request failed: ${error.message}` };
    throw error;
  }
  return { ok: false, reason: "the model gave no usable reply" };
};

const openAiErrorSchema = z.object({
  error: z.object({
    message: z.string().nullish(),
    param: z.string().nullish(),
    code: z.string().nullish(),
  }),
});

/**
 * The request parameter an OpenAI-style error body refuses as unsupported, if any: `error.param` with
 * code `unsupported_value` or `unsupported_parameter` (OpenAI), else the name quoted in an
 * "Unsupported value: 'temperature' …" / "Unsupported parameter: 'temperature' …" message (servers
 * that copy the message but leave `param` null).
 */
export const unsupportedParam = (body: string): string | undefined => {
  let parsed: z.infer<typeof openAiErrorSchema>;
  try {
    const checked = openAiErrorSchema.safeParse(JSON.parse(body));
    if (!checked.success) return undefined;
    parsed = checked.data;
  } catch {
    return undefined;
  }
  const { message, param, code } = parsed.error;
  if (param && (code === "unsupported_value" || code === "unsupported_parameter")) return param;
  return /^Unsupported (?:value|parameter): '([A-Za-z_]+)'/.exec(message ?? "")?.[1];
};

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 300);
