import { describeStaleFallback, startEmulator } from "@quiver/testing";
import { createPerplexityPlugin } from "../src/index.js";
import { routePerplexity } from "./perplexity-upstream.js";

const KEY = "pplx-test-7f3a9c2e1b4d6f8a";

describeStaleFallback({
  upstream: "Perplexity",
  plugin: createPerplexityPlugin,
  start: async () => {
    const up = await startEmulator();
    routePerplexity(up, KEY);
    return { up, options: { baseUrl: up.url }, env: { PERPLEXITY_API_KEY: KEY } };
  },
  tool: "perplexity_search_web",
  input: { query: "What is the current population of San Francisco?" },
  // Past the cache's lifetime.
  afterMs: 20 * 60_000,
  errorKind: "unavailable",
});
