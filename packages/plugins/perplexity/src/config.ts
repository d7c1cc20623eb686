import { secret } from "@quiver/core";
import { z } from "zod";

/**
 * Perplexity's API.
 *
 * @example
 * createPerplexityPlugin({ baseUrl: DEFAULT_BASE_URL });
 */
export const DEFAULT_BASE_URL = "https://api.perplexity.ai";

/**
 * The two Perplexity APIs behind `perplexity_search_web`.
 *
 * @example
 * const api: PerplexityApi = "chat";
 */
export type PerplexityApi = "search" | "chat";

const fields = z.object({
  apiKey: secret().describe("Perplexity API key (pplx-…)."),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ""))
    .describe("Base URL of Perplexity's API."),
  api: z
    .enum(["search", "chat"])
    .describe(
      "search: the Search API (ranked results); chat: Sonar chat completions (an answer with citations).",
    ),
  model: z.string().min(1).describe("Sonar model for the chat API when the call names none."),
  maxResults: z.number().int().min(1).max(20).describe("Results when the call names no max_results."),
});

/**
 * The plugin's settings after parsing (the key as Redacted); the tool reads them as `ctx.config`.
 *
 * @example
 * const api: PerplexityConfig["api"] = "search";
 */
export type PerplexityConfig = z.output<typeof fields>;

/**
 * Options of {@link createPerplexityPlugin}: defaults for the plugin's settings. Environment variables
 * (`PERPLEXITY_API_KEY`, `PERPLEXITY_BASE_URL`) and the host's per-plugin options win over them.
 *
 * @example
 * const options: PerplexityPluginOptions = { api: "chat", model: "sonar-pro" };
 */
export interface PerplexityPluginOptions {
  /** The API key; normally from `PERPLEXITY_API_KEY`. */
  readonly apiKey?: string;
  /** Default `https://api.perplexity.ai`. */
  readonly baseUrl?: string;
  /** `"search"` (default: the Search API) or `"chat"` (Sonar chat completions). */
  readonly api?: PerplexityApi;
  /** Default Sonar model for `api: "chat"`. Default `"sonar"`. */
  readonly model?: string;
  /** Default number of results, 1–20. Default 5. */
  readonly maxResults?: number;
}

/** Environment variable of each setting. */
export const PERPLEXITY_ENV = { apiKey: "PERPLEXITY_API_KEY", baseUrl: "PERPLEXITY_BASE_URL" } as const;

/**
 * The config schema, with `defaults` (the factory's options) under the values the host supplies.
 * Without an API key the plugin is unconfigured and its tool answers `unavailable` naming
 * `PERPLEXITY_API_KEY`.
 *
 * @example
 * const parsed = perplexityConfigSchema({ api: "chat" }).parse({ apiKey: "pplx-…" });
 */
export const perplexityConfigSchema = (defaults: PerplexityPluginOptions = {}): z.ZodType<PerplexityConfig> =>
  z.preprocess(
    (raw) => ({
      baseUrl: DEFAULT_BASE_URL,
      api: "search",
      model: "sonar",
      maxResults: 5,
      ...Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined)),
      ...(typeof raw === "object" && raw !== null ? raw : {}),
    }),
    fields,
  ) as unknown as z.ZodType<PerplexityConfig>;
