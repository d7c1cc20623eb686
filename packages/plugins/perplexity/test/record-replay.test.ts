import { createCatalog } from "@quiver/core";
import { describeRecordReplay, startEmulator } from "@quiver/testing";
import { createPerplexityPlugin } from "../src/index.js";
import { routePerplexity } from "./perplexity-upstream.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "pplx-canary-0d9e8f7a6b5c";
const TOOL = "perplexity_search_web";
const session = { session: { id: "s1", principal: "alice@example.org" } };

for (const api of ["search", "chat"] as const) {
  describeRecordReplay({
    title: `Perplexity tool calls (${api} API)`,
    start: async () => {
      const up = await startEmulator();
      routePerplexity(up, CANARY);
      return up;
    },
    catalog: (http, up) => {
      // Replay runs with a placeholder key: the recorded requests carry none to compare with.
      const catalog = createCatalog({ http, env: { PERPLEXITY_API_KEY: CANARY } });
      catalog.register(createPerplexityPlugin({ api }), { baseUrl: up.url });
      return catalog;
    },
    calls: [
      {
        tool: TOOL,
        input: { query: "What is the population of San Francisco?", max_results: 2 },
        options: session,
      },
      { tool: TOOL, input: { query: "Latest Node.js release", recency: "week" }, options: session },
    ],
    statuses: ["success", "success"],
    canary: CANARY,
    cassettesContain: ['"authorization": "[REDACTED]"'],
    cassettesOmit: ["alice@example.org"],
  });
}
