import { definePlugin, type Plugin } from "@quiver/core";
import { z } from "zod";
import { type FdaConfig, fdaConfigSchema, OPENFDA_LIMITS } from "./internal/config.js";
import { createDailyBudget } from "./internal/daily-budget.js";
import { makeCountDrugs } from "./tools/count-drugs.js";
import { makeSearchDrugs } from "./tools/search-drugs.js";
import { VERSION } from "./version.js";

export type { FdaConfig } from "./internal/config.js";
export { VERSION } from "./version.js";
export { OPENFDA_LIMITS };

/** Options of {@link createFdaPlugin}: defaults for the plugin's settings (environment variables still apply). */
export interface FdaPluginOptions {
  /** openFDA base URL (default `https://api.fda.gov`); point it at an emulator in tests. */
  readonly baseUrl?: string;
  /** openFDA API key; normally read from `OPENFDA_API_KEY`. */
  readonly apiKey?: string;
  /** Requests per day this host may send (default 1,000 without a key, 120,000 with one). */
  readonly dailyLimit?: number;
}

/**
 * Creates the openFDA plugin: `fda_search_drugs` and `fda_count_drugs`, with one daily request budget
 * shared by both tools of this instance.
 *
 * Use the default export in a host; call this to bake in settings or to get a fresh daily budget.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createFdaPlugin())   // OPENFDA_API_KEY is optional
 * await catalog.call("fda_search_drugs", { search_criteria: { brand_name: "Ozempic" } })
 */
export const createFdaPlugin = (options: FdaPluginOptions = {}): Plugin<FdaConfig> => {
  const deps = { budget: createDailyBudget() };
  const defaults = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return definePlugin<FdaConfig>({
    specificationVersion: "v1",
    id: "fda",
    version: VERSION,
    description: "FDA-approved drugs from openFDA (Drugs@FDA and drug labels): search and counts.",
    // Options are defaults: settings given at registration and environment variables win over them.
    config: z.preprocess((raw) => ({ ...defaults, ...(raw as object) }), fdaConfigSchema),
    env: { apiKey: "OPENFDA_API_KEY" },
    tools: [makeSearchDrugs(deps), makeCountDrugs(deps)],
    health: async ({ config, http, signal }) => {
      const res = await http.request({
        url: `${config.baseUrl.replace(/\/+$/, "")}/drug/drugsfda.json`,
        query: { api_key: config.apiKey, limit: 1 },
        signal,
      });
      const updated = /"last_updated"\s*:\s*"([^"]+)"/.exec(res.body)?.[1];
      return { ok: true, message: `openFDA answered${updated ? ` (data last updated ${updated})` : ""}.` };
    },
  });
};

/** The plugin with default settings; the host imports this. */
export default createFdaPlugin();
