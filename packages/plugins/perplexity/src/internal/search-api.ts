import { z } from "zod";
import type { WebSearchBackend } from "./backend.js";
import { postJson } from "./post-json.js";
import { toResult } from "./web-results.js";

/** `POST /search` response (`ApiSearchResponse`). */
const SearchResponseSchema = z.object({
  id: z.string().nullish(),
  server_time: z.string().nullish(),
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string().min(1),
      snippet: z.string().nullish(),
      date: z.string().nullish(),
      last_updated: z.string().nullish(),
    }),
  ),
});

/**
 * Perplexity's Search API (`POST /search`): ranked pages with snippets; no generated answer, so the
 * model writes it. Recency and domain filters map to `search_recency_filter` and `search_domain_filter`.
 *
 * @example
 * const out = await searchApi.search({ query: "node 24 release date", maxResults: 5 }, { http, config, signal });
 */
export const searchApi: WebSearchBackend = {
  api: "search",
  search: async (request, ctx) => {
    const body = await postJson(
      ctx,
      "/search",
      {
        query: request.query,
        max_results: request.maxResults,
        max_tokens_per_page: 512,
        ...(request.recency ? { search_recency_filter: request.recency } : {}),
        ...(request.domains && request.domains.length > 0 ? { search_domain_filter: request.domains } : {}),
      },
      SearchResponseSchema,
    );
    const results = body.results.slice(0, request.maxResults).map(toResult);
    return { answer_included: false, results, citations: results.map((r) => r.url), api: "search" };
  },
};
