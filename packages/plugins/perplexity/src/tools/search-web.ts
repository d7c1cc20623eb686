import { defineToolWith, outcome, ToolFailure } from "@quiver/core";
import { z } from "zod";
import type { PerplexityConfig } from "../config.js";
import { chatApi } from "../internal/chat-api.js";
import { SONAR_MODELS, searchApi } from "../internal/perplexity-api.js";
import { SEARCH_WEB_POLICY } from "../internal/policy.js";
import { WebSearchOutputSchema } from "../internal/web-results.js";

/**
 * Whether the chat API refused this key or is gone (401/403, 404/410), rather than failing: then the
 * call still gets sources from the Search API, so a key without Sonar access (or an account after
 * Sonar's retirement) is not left with no answer at all.
 */
const chatRefused = (error: unknown): error is ToolFailure =>
  ToolFailure.isInstance(error) &&
  (error.kind === "access_denied" || error.status === 404 || error.status === 410);

const DOMAIN = /^-?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const INSTRUCTIONS = {
  search:
    "Write a concise answer to the user's question from these results. Cite each claim with the URL (or [n], n = position in results) it comes from, " +
    "prefer recent and authoritative sources, and say so when the results do not answer the question. Do not paste the results.",
  chat:
    "Relay this answer in your own words. Keep its [n] markers pointing at citations[n-1] (or replace them with the URLs), " +
    "and do not present uncited claims as certain.",
} as const;

const input = z.object({
  query: z.string().min(1).max(2_000).describe("The question or search terms, in natural language"),
  recency: z
    .enum(["hour", "day", "week", "month", "year"])
    .optional()
    .describe("Only sources published within this window"),
  domains: z
    .array(z.string().regex(DOMAIN, "a domain like 'nature.com', or '-pinterest.com' to exclude one"))
    .max(20)
    .optional()
    .describe("Only these domains (e.g. 'nih.gov'); prefix with '-' to exclude one instead; at most 20"),
  max_results: z.int().min(1).max(20).optional().describe("How many sources to return, 1–20 (default 5)"),
  model: z
    .enum(SONAR_MODELS)
    .optional()
    .describe(
      "Sonar model for the chat API: sonar (fast), sonar-pro, sonar-reasoning-pro (slower); ignored by the Search API",
    ),
});

/** A call's input with `max_results` filled from the settings: what both APIs are sent. */
export type WebSearchRequest = z.output<typeof input> & { readonly max_results: number };

/**
 * `perplexity_search_web`: searches the web with Perplexity and returns cited results, plus a short
 * answer when the chat API is configured (GAIA's `search_web(query, options?)`). The Search API stays
 * the default because Perplexity announced the retirement of Sonar chat completions (27 Sept 2026,
 * unconfirmed); the output's `answer_included` and the description make the difference plain.
 *
 * Use it for questions about current events, recent releases, or facts the model may not know.
 *
 * @example
 * await catalog.call("perplexity_search_web", { query: "latest Node.js LTS version", recency: "month", max_results: 5 });
 */
export const searchWeb = defineToolWith<PerplexityConfig>()({
  name: "perplexity_search_web",
  title: "Search the web (Perplexity)",
  description:
    "Search the web with Perplexity and get sources with titles, URLs, dates and snippets. Use this for current events, recent releases, prices, " +
    "or any fact that may have changed or that you are unsure of. With Perplexity's Search API (the default) there is no written answer: " +
    "write it yourself from the snippets and cite the URLs. When the host uses Perplexity's chat API (Sonar), `answer` also holds Perplexity's " +
    "concise cited answer; `answer_included` says which you got.",
  category: "web_search",
  input,
  output: WebSearchOutputSchema,
  examples: [
    { input: { query: "What is the current population of San Francisco?" } },
    {
      input: {
        query: "TypeScript 5.9 release notes",
        recency: "year",
        domains: ["devblogs.microsoft.com"],
        max_results: 3,
      },
    },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: SEARCH_WEB_POLICY,
  run: async (input, ctx) => {
    const request = { ...input, max_results: input.max_results ?? ctx.config.maxResults };
    let refused: ToolFailure | undefined;
    const backend = ctx.config.api === "chat" ? chatApi : searchApi;
    const out = await backend(request, ctx).catch((error: unknown) => {
      if (backend !== chatApi || !chatRefused(error)) throw error;
      refused = error;
      return searchApi(request, ctx);
    });
    const { api, model, citations, results } = out;
    const ignored =
      input.model && !refused ? ` (model ${input.model} ignored: the Search API has no model)` : "";
    const fellBack = refused
      ? `Perplexity's chat API refused this key (${refused.status ? `HTTP ${refused.status}: ` : ""}${refused.message}), so the Search API answered: `
      : "";
    const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
    return outcome(out, {
      message:
        api === "chat"
          ? `Perplexity ${model} answered with ${plural(citations.length, "citation")}.`
          : `${fellBack}Perplexity Search API found ${plural(results.length, "source")}${ignored}; sources only, no written answer (answer_included: false).`,
      instruction: INSTRUCTIONS[api],
      source: api === "chat" ? `Perplexity chat completions (${model})` : "Perplexity Search API",
      metadata: { api, ...(refused ? { chat_refused: true } : {}) },
    });
  },
});
