import { secret } from "@quiver/core";
import type * as Redacted from "effect/Redacted";
import { z } from "zod";

const url = z.string().regex(/^https?:\/\/\S+$/, "expected an http(s) URL");
const positiveInt = z.coerce.number().int().positive();

/** The testgen plugin's settings (from options, the host's config file and environment variables). */
export const testgenConfigSchema = z.object({
  llmBaseUrl: url
    .optional()
    .describe("OpenAI-compatible base URL (https://api.openai.com/v1, http://localhost:11434/v1 ...)."),
  llmApiKey: secret().optional().describe("API key, sent as a Bearer token."),
  llmModel: z.string().min(1).optional().describe("Model name."),
  llmTemperature: z.coerce
    .number()
    .min(0)
    .max(2)
    .optional()
    .describe(
      "Sampling temperature sent to the LLM; unset, none is sent and the model's default applies (reasoning models accept only their default).",
    ),
  llmTimeoutMs: positiveInt.default(60_000).describe("Deadline of one chat completion request."),
  llmRetries: z.coerce
    .number()
    .int()
    .min(0)
    .max(5)
    .default(2)
    .describe(
      "Retries of a chat completion the LLM answered 429 or 5xx, after its Retry-After, while the wait fits in LLM_TIMEOUT_MS.",
    ),
  responseFormat: z
    .enum(["auto", "json_schema", "json_object"])
    .default("auto")
    .describe("auto: json_schema, falling back to json_object when the server rejects it."),
  backendUrl: url
    .optional()
    .describe("Backend serving professors' preferences at /users/subject/{subject}/preferences."),
  preferencesTimeoutMs: positiveInt.default(5_000).describe("Deadline of the preferences request."),
});

/** The validated settings a tool receives as `ctx.config`. */
export type TestgenConfig = z.output<typeof testgenConfigSchema>;

/** Environment variable of each setting. */
export const TESTGEN_ENV = {
  llmBaseUrl: "LLM_BASE_URL",
  llmApiKey: "LLM_API_KEY",
  llmModel: "LLM_MODEL",
  llmTemperature: "LLM_TEMPERATURE",
  llmTimeoutMs: "LLM_TIMEOUT_MS",
  llmRetries: "LLM_RETRIES",
  responseFormat: "LLM_RESPONSE_FORMAT",
  backendUrl: "BACKEND_SERVICE_URL",
  preferencesTimeoutMs: "BACKEND_PREFERENCES_TIMEOUT_MS",
} as const;

/** The LLM endpoint in use, or why there is none. */
export type LlmSettings =
  | {
      readonly ok: true;
      readonly url: string;
      readonly model: string;
      readonly apiKey?: Redacted.Redacted<string> | undefined;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * Where to send chat completions: `{base}/chat/completions` when the base URL has a path
 * (`…/v1`), `{base}/v1/chat/completions` when it is a bare origin. With only an API key, OpenAI
 * (`gpt-4o-mini` unless LLM_MODEL says otherwise).
 */
export const llmSettings = (config: TestgenConfig): LlmSettings => {
  const base = config.llmBaseUrl ?? (config.llmApiKey ? "https://api.openai.com/v1" : undefined);
  if (!base)
    return {
      ok: false,
      reason: "set LLM_BASE_URL and LLM_MODEL, or LLM_API_KEY for OpenAI",
    };
  const model = config.llmModel ?? (config.llmBaseUrl ? undefined : "gpt-4o-mini");
  if (!model) return { ok: false, reason: "LLM_MODEL is not set" };
  const u = new URL(base);
  const path = u.pathname.replace(/\/+$/, "");
  const endpoint = path.endsWith("/chat/completions")
    ? path
    : path === ""
      ? "/v1/chat/completions"
      : `${path}/chat/completions`;
  return { ok: true, url: `${u.origin}${endpoint}${u.search}`, model, apiKey: config.llmApiKey };
};
