import { createCatalog } from "@quiver/core";
import { describeRecordReplay } from "@quiver/testing";
import { createFdaPlugin } from "../src/index.js";
import { startOpenFdaEmulator } from "./support/openfda-emulator.js";

/** The key the recording runs with (a canary): openFDA takes it as the `api_key` query parameter, so the
 * cassettes' URLs must carry `[REDACTED]` in its place. */
const CANARY = "openfda-canary-3b7e1d9c5a";
const session = { session: { id: "s1", principal: "alice@example.org" } };

describeRecordReplay({
  title: "openFDA tool calls",
  start: async () => (await startOpenFdaEmulator()).up,
  catalog: (http, up) => {
    const catalog = createCatalog({ http, env: { OPENFDA_API_KEY: CANARY } });
    catalog.register(createFdaPlugin(), { baseUrl: up.url });
    return catalog;
  },
  calls: [
    { tool: "fda_search_drugs", input: { search_criteria: { brand_name: "Ozempic" } } },
    { tool: "fda_search_drugs", input: { search_criteria: { indication: "type 2 diabetes" } } },
    {
      tool: "fda_count_drugs",
      input: { search_criteria: { pharmacologic_class: "GLP-1 Receptor Agonist" }, count_by: "sponsor" },
    },
    { tool: "fda_count_drugs", input: { count_by: "route" } },
  ].map((c) => ({ ...c, options: session })),
  statuses: ["success", "success", "success", "success"],
  canary: CANARY,
  // The label search checks its answers against Drugs@FDA: more requests than calls.
  recordedRequests: 4,
  cassettesContain: ["api_key=[REDACTED]"],
  cassettesOmit: ["alice@example.org"],
});
