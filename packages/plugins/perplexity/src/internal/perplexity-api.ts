import { type ToolContext, ToolFailure } from "@quiver/core";
import { z } from "zod";
import type { PerplexityConfig } from "../config.js";
import type { WebSearchRequest } from "../tools/search-web.js";
import { UpstreamResultSchema, type WebSearchOutput } from "./web-results.js";

/** Where a Perplexity key is created. */
export const KEYS_PAGE = "https://www.perplexity.ai/account/api/keys";

/**
 * Sonar models the tool offers: those that answer a single, non-streamed chat completion within the
 * tool's time budget. `sonar-deep-research` researches for minutes: a non-streamed call outlives any
 * sensible timeout and a blind retry repeats a slow, expensive run, so it is refused (chat-api.ts);
 * `perplexity_deep_research` runs its successor, the Agent API's preset `medium`, in background mode.
 */
export const SONAR_MODELS = ["sonar", "sonar-pro", "sonar-reasoning-pro"] as const;

/** What a call to Perplexity needs from the tool's context. */
export type PerplexityContext = Pick<ToolContext<PerplexityConfig>, "http" | "config" | "signal">;

/** One Perplexity API behind `perplexity_search_web`, its answer normalised to {@link WebSearchOutput}. */
export type WebSearchBackend = (
  request: WebSearchRequest,
  ctx: PerplexityContext,
) => Promise<WebSearchOutput>;

/** The recency and domain filters, as both APIs take them (`search_recency_filter`, `search_domain_filter`). */
export const searchFilters = ({ recency, domains }: WebSearchRequest) => ({
  ...(recency ? { search_recency_filter: recency } : {}),
  ...(domains?.length ? { search_domain_filter: domains.map((d) => d.toLowerCase()) } : {}),
});

/** What every request to Perplexity carries: the base URL, and the key as Bearer token (named by its setting in failures). */
export const keyed = ({ baseUrl, apiKey }: PerplexityConfig) =>
  ({ baseUrl, bearer: apiKey, apiKeyVar: "PERPLEXITY_API_KEY" }) as const;

/**
 * POSTs JSON to Perplexity with the key as its Bearer token and parses the answer with `schema`.
 * Failures get Perplexity-specific fixes: a rejected key (401/403) says how to get a valid one, an
 * unknown model lists the documented ones. Messages are already redacted by the HTTP client.
 */
export const postJson = <T>(ctx: PerplexityContext, url: string, json: unknown, schema: z.ZodType<T>) =>
  ctx.http
    .json({ ...keyed(ctx.config), method: "POST", url, json, schema, signal: ctx.signal })
    .catch((error: unknown) => {
      if (!ToolFailure.isInstance(error)) throw error;
      const fix =
        error.kind === "access_denied"
          ? {
              suggestion: `Perplexity rejected PERPLEXITY_API_KEY. Set it to a valid key (they start with "pplx-"; create one at ${KEYS_PAGE}), check the account has API credit, and restart the host.`,
              guidance:
                "Web search is not available here: answer from your own knowledge and say you could not check current sources.",
            }
          : error.kind === "invalid_input" && /model/i.test(error.message)
            ? { suggestion: `Use one of the Sonar models: ${SONAR_MODELS.join(", ")} (or omit model).` }
            : undefined;
      // The same failure (kind, status, redacted message) with Perplexity's fix.
      throw fix ? ToolFailure.make({ ...error, message: error.message, ...fix }) : error;
    });

/**
 * Perplexity's Search API (`POST /search`, `ApiSearchResponse`): ranked pages with snippets; no
 * generated answer, so the model writes it.
 *
 * @example
 * const out = await searchApi({ query: "node 24 release date", max_results: 5 }, { http, config, signal: AbortSignal.timeout(5_000) });
 */
export const searchApi: WebSearchBackend = async (request, ctx) => {
  const { query, max_results } = request;
  const json = { query, max_results, max_tokens_per_page: 512, ...searchFilters(request) };
  const body = await postJson(ctx, "/search", json, z.object({ results: z.array(UpstreamResultSchema) }));
  const results = body.results.slice(0, max_results);
  return { answer_included: false, results, citations: results.map((r) => r.url), api: "search" };
};
