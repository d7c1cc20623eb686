// What every load client calls, on both servers: three tools of three plugins, each with input that
// differs on every call (so Quiver's result cache misses and every call reaches the emulated upstream,
// as every call of the bare server does), and the upstream requests each tool makes.

/** Pools that make each call's input unique and plausible. */
const INGREDIENTS = ["tirzepatide", "semaglutide", "metformin", "ibuprofen", "atorvastatin"];
const TOPICS = ["middleware", "routing", "caching", "server actions", "images"];

/**
 * The calls a client rotates through: tool name and the arguments of its `i`-th call (unique per
 * client `k` and call `i`). The bare server registers tools with the same names.
 */
export const WORKLOAD = [
  {
    tool: "fda_search_drugs",
    args: (k, i) => ({
      search_criteria: { active_ingredient: `${INGREDIENTS[i % 5]} ${k}-${i}` },
      max_results: 1,
    }),
  },
  {
    tool: "context7_search_documentation",
    args: (k, i) => ({ query: `${TOPICS[i % 5]} in the app router (${k}-${i})`, library: "next.js" }),
  },
  {
    tool: "perplexity_search_web",
    args: (k, i) => ({ query: `What is the population of San Francisco? (${k}-${i})` }),
  },
];

/** The key the emulated Perplexity expects and both servers send (a placeholder, never a real key). */
export const PERPLEXITY_KEY = "pplx-load-bench-placeholder";
