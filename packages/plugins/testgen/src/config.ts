import { secret, setting, type ToolContext } from "@quiver/core";
import { z } from "zod";
import type { TestgenResources } from "./setup.js";

const url = z.string().regex(/^https?:\/\/\S+$/, "expected an http(s) URL");
const positiveInt = z.coerce.number().int().positive();

/** The testgen plugin's settings (from options, the host's config file and environment variables). */
export const testgenConfigSchema = z.object({
  llmBaseUrl: setting(url.optional(), { env: "LLM_BASE_URL" }).describe(
    "OpenAI-compatible base URL (https://api.openai.com/v1, http://localhost:11434/v1 ...).",
  ),
  llmApiKey: secret({ env: "LLM_API_KEY" }).optional().describe("API key, sent as a Bearer token."),
  llmModel: setting(z.string().min(1).optional(), { env: "LLM_MODEL" }).describe("Model name."),
  llmTemperature: setting(z.coerce.number().min(0).max(2).optional(), { env: "LLM_TEMPERATURE" }).describe(
    "Sampling temperature sent to the LLM; unset, none is sent and the model's default applies (reasoning models accept only their default).",
  ),
  llmTimeoutMs: setting(positiveInt.default(60_000), { env: "LLM_TIMEOUT_MS" }).describe(
    "Deadline of one chat completion request.",
  ),
  llmRetries: setting(z.coerce.number().int().min(0).max(5).default(2), { env: "LLM_RETRIES" }).describe(
    "Retries of a chat completion the LLM answered 429 or 5xx, after its Retry-After, while the wait fits in LLM_TIMEOUT_MS.",
  ),
  responseFormat: setting(z.enum(["auto", "json_schema", "json_object"]).default("auto"), {
    env: "LLM_RESPONSE_FORMAT",
  }).describe("auto: json_schema, falling back to json_object when the server rejects it."),
  backendUrl: setting(url.optional(), { env: "BACKEND_SERVICE_URL" }).describe(
    "Backend serving professors' preferences at /users/subject/{subject}/preferences.",
  ),
  preferencesTimeoutMs: setting(positiveInt.default(5_000), {
    env: "BACKEND_PREFERENCES_TIMEOUT_MS",
  }).describe("Deadline of the preferences request."),
});

/** The validated settings a tool receives as `ctx.config`. */
export type TestgenConfig = z.output<typeof testgenConfigSchema>;

/** What the testgen tool's run receives: its settings and the registration's memory of refusals. */
export type TestgenContext = ToolContext<TestgenConfig, TestgenResources>;

/**
 * Where to send chat completions: `{base}/chat/completions` when the base URL has a path
 * (`…/v1`), `{base}/v1/chat/completions` when it is a bare origin. With only an API key, OpenAI
 * (`gpt-4o-mini` unless LLM_MODEL says otherwise).
 */
export const llmSettings = (config: TestgenConfig) => {
  const base = config.llmBaseUrl ?? (config.llmApiKey ? "https://api.openai.com/v1" : undefined);
  if (!base)
    return { ok: false, reason: "set LLM_BASE_URL and LLM_MODEL, or LLM_API_KEY for OpenAI" } as const;
  const model = config.llmModel ?? (config.llmBaseUrl ? undefined : "gpt-4o-mini");
  if (!model) return { ok: false, reason: "LLM_MODEL is not set" } as const;
  const u = new URL(base);
  const path = u.pathname.replace(/\/+$/, "");
  const endpoint = path.endsWith("/chat/completions") ? path : `${path || "/v1"}/chat/completions`;
  return { ok: true, url: `${u.origin}${endpoint}${u.search}`, model, apiKey: config.llmApiKey } as const;
};

/** The LLM endpoint in use (when there is one). */
export type LlmEndpoint = Extract<ReturnType<typeof llmSettings>, { ok: true }>;
