import { secret, setting } from "@quiver/core";
import { z } from "zod";

/**
 * The plugin's settings. Without an API key the plugin is unconfigured and its tool answers
 * `unavailable` naming `PERPLEXITY_API_KEY`.
 */
export const perplexityConfigSchema = z.object({
  apiKey: secret({ env: "PERPLEXITY_API_KEY" }).describe("Perplexity API key (pplx-…)."),
  baseUrl: setting(z.url({ protocol: /^https?$/ }).default("https://api.perplexity.ai"), {
    env: "PERPLEXITY_BASE_URL",
  }).describe("Base URL of Perplexity's API."),
  api: z
    .enum(["search", "chat"])
    .default("search")
    .describe(
      "search: the Search API (ranked results); chat: Sonar chat completions (an answer with citations).",
    ),
  model: z
    .string()
    .min(1)
    .default("sonar")
    .describe("Sonar model for the chat API when the call names none."),
  maxResults: z.int().min(1).max(20).default(5).describe("Results when the call names no max_results."),
  researchPollMs: setting(z.coerce.number().int().min(10).default(5_000), {
    env: "PERPLEXITY_RESEARCH_POLL_MS",
  }).describe("How often perplexity_deep_research polls its background run, in milliseconds."),
});

/**
 * The plugin's settings after parsing (the key as Redacted); the tool reads them as `ctx.config`.
 *
 * @example
 * const api: PerplexityConfig["api"] = "search";
 */
export type PerplexityConfig = z.output<typeof perplexityConfigSchema>;
