import { createPerplexityPlugin } from "./plugin.js";

export {
  DEFAULT_BASE_URL,
  type PerplexityApi,
  type PerplexityConfig,
  type PerplexityPluginOptions,
  perplexityConfigSchema,
} from "./config.js";
export type { WebResult, WebSearchOutput } from "./internal/web-results.js";
export { createPerplexityPlugin } from "./plugin.js";
export { SONAR_MODELS, searchWeb } from "./tools/search-web.js";
export { VERSION } from "./version.js";

/**
 * The Perplexity plugin with default settings (Search API; needs `PERPLEXITY_API_KEY`). Hosts import it.
 *
 * @example
 * import perplexity from "@quiver/plugin-perplexity";
 * catalog.register(perplexity);
 */
export default createPerplexityPlugin();
