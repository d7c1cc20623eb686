import type { ToolPolicy } from "@quiver/core";

/** What the model should do while web search cannot answer. */
export const UNAVAILABLE_GUIDANCE =
  "Web search could not be used, so continue without it: answer from what you already know, say plainly that you could not check current sources, " +
  "and flag anything that may have changed recently (prices, versions, news, people's roles). Do not invent citations. " +
  "Try the search again at most once in this conversation.";

/**
 * Policies of `perplexity_search_web`: Sonar's smallest tier allows 50 requests a minute (the Search
 * API far more), so one budget of 50/min (keyed by the plugin id, `perplexity`, as the breaker is); answers are cached 15 minutes because
 * web results go stale; 60 s timeout (Sonar reasoning models are slow).
 */
export const SEARCH_WEB_POLICY: ToolPolicy = {
  timeout: "60s",
  retry: { base: "500ms" },
  cache: { ttl: "15m" },
  rateLimit: { limit: 50, window: "1 minute" },
  maxOutputChars: 30_000,
  // The last good answer (marked stale, with its age) beats none while Perplexity is down.
  fallback: { stale: true, guidance: UNAVAILABLE_GUIDANCE },
};

/**
 * Policies of `perplexity_deep_research`. `retry: false`: the submit starts a paid run, so the call
 * is never repeated (the tool retries its polls itself). Submits are limited to 5 a minute, keyed
 * `perplexity-research`: Perplexity's published Tier-0 limit on asynchronous research submits
 * (`sonar-deep-research` and `POST /async/chat/completions`, 5 RPM; docs.perplexity.ai, rate limits
 * and usage tiers), so a burst is refused here (`rate_limited`, with `retryAfterMs`) before Perplexity
 * refuses it; hosts on higher tiers raise it. 15 minutes per call (a task's own deadline applies
 * too); reports are not cached.
 */
export const DEEP_RESEARCH_POLICY: ToolPolicy = {
  timeout: "15 minutes",
  retry: false,
  cache: false,
  rateLimit: { key: "perplexity-research", limit: 5, window: "1 minute" },
  maxOutputChars: 60_000,
};
