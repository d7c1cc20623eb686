import { definePlugin, type HealthContext, type PluginOptions, ToolFailure } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { type PerplexityConfig, perplexityConfigSchema } from "./config.js";
import { KEYS_PAGE, keyed } from "./internal/perplexity-api.js";
import { deepResearch } from "./tools/deep-research.js";
import { searchWeb } from "./tools/search-web.js";

export type { PerplexityConfig } from "./config.js";
export type { WebResult, WebSearchOutput } from "./internal/web-results.js";
export type { ResearchOutput } from "./tools/deep-research.js";

/**
 * Options of {@link createPerplexityPlugin}: defaults for the plugin's settings (`apiKey`, `baseUrl`,
 * `api`, `model`, `maxResults`; see config.ts). Environment variables (`PERPLEXITY_API_KEY`,
 * `PERPLEXITY_BASE_URL`) and the host's per-plugin options win over them.
 *
 * @example
 * const options: PerplexityPluginOptions = { api: "chat", model: "sonar-pro" };
 */
export type PerplexityPluginOptions = PluginOptions<typeof perplexityConfigSchema>;

/**
 * Checks the key without paying for a search: an empty `POST /search` is refused as invalid (400/422)
 * when the key is good, and as unauthorised (401/403) when it is not.
 */
const health = async ({ config, http, signal }: HealthContext<PerplexityConfig>) => {
  const check = { ...keyed(config), method: "POST", url: "/search", json: {}, signal } as const;
  try {
    const { status } = await http.request({ ...check, acceptStatus: [400, 422] });
    return {
      ok: true,
      message: `Perplexity accepted the API key (${config.api} API; key check answered HTTP ${status}).`,
    };
  } catch (error) {
    const failure = ToolFailure.isInstance(error) ? error : undefined;
    return {
      ok: false,
      message: `Perplexity key check failed: ${failure?.message ?? String(error)}`,
      fix:
        failure?.kind === "access_denied"
          ? `Set PERPLEXITY_API_KEY to a valid key (create one at ${KEYS_PAGE}).`
          : `Check that ${config.baseUrl} is reachable from this host.`,
    };
  }
};

/**
 * Creates the Perplexity plugin: `perplexity_search_web` over the Search API (default) or Sonar chat
 * completions (`api: "chat"`). Options are defaults; `PERPLEXITY_API_KEY`/`PERPLEXITY_BASE_URL` and the
 * host's plugin options win over them.
 *
 * Use it to give an agent cited web search; pick `api: "chat"` when you want Perplexity to write the answer.
 *
 * @example
 * const catalog = createCatalog();                  // PERPLEXITY_API_KEY from the environment
 * catalog.register(createPerplexityPlugin({ api: "chat", model: "sonar-pro" }));
 * const result = await catalog.call("perplexity_search_web", { query: "Who won the 2026 Tour de France?" });
 */
export const createPerplexityPlugin = (options: PerplexityPluginOptions = {}) =>
  definePlugin({
    id: "perplexity",
    version: pkg.version,
    description:
      "Web search with citations and deep research reports from Perplexity (Search, Sonar, Agent APIs).",
    instructions:
      "Use perplexity_search_web for current public information from the web, citing its sources, and perplexity_deep_research (slow, billed per run; best as a task) for broad questions that need a survey of many sources; neither for course material or private documents. Never put confidential or personal data in a query: it goes to Perplexity.",
    config: perplexityConfigSchema,
    defaults: options,
    tools: [searchWeb, deepResearch],
    health,
  });

/**
 * The Perplexity plugin with default settings (Search API; needs `PERPLEXITY_API_KEY`). Hosts import it.
 *
 * @example
 * import perplexity from "@quiver/plugin-perplexity";
 * catalog.register(perplexity);
 */
export default createPerplexityPlugin();
