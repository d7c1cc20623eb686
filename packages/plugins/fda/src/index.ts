import { definePlugin, type Plugin } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { FDA_ENV, type FdaConfig, fdaConfigSchema } from "./config.js";
import type { OpenFdaClient } from "./internal/openfda-client.js";
import { countDrugs } from "./tools/count-drugs.js";
import { searchDrugs } from "./tools/search-drugs.js";

export type { FdaConfig } from "./config.js";
export type { OpenFdaClient } from "./internal/openfda-client.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;

/** Options of {@link createFdaPlugin}: defaults for the plugin's settings (environment variables win). */
export interface FdaPluginOptions {
  /** openFDA base URL (default `https://api.fda.gov`); point it at an emulator in tests. */
  readonly baseUrl?: string;
  /** openFDA API key; normally read from `OPENFDA_API_KEY`. */
  readonly apiKey?: string;
}

/**
 * Creates the openFDA plugin: `fda_search_drugs` and `fda_count_drugs`, sharing one openFDA client
 * (opened in `setup`) and openFDA's rate limits (240 calls a minute, 1,000 a day, applied by the runtime).
 *
 * Use the default export in a host; call this to bake in settings.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createFdaPlugin())   // OPENFDA_API_KEY is optional
 * await catalog.call("fda_search_drugs", { search_criteria: { brand_name: "Ozempic" } })
 */
export const createFdaPlugin = (options: FdaPluginOptions = {}): Plugin<FdaConfig, OpenFdaClient> =>
  definePlugin<FdaConfig, OpenFdaClient>({
    specificationVersion: "v1",
    id: "fda",
    version: VERSION,
    description: "FDA-approved drugs from openFDA (Drugs@FDA and drug labels): search and counts.",
    config: fdaConfigSchema,
    defaults: { ...options },
    env: FDA_ENV,
    tools: [searchDrugs, countDrugs],
    // Loaded at the first call, not at import: `quiver list` never opens the client.
    setup: (ctx) => import("./setup.js").then((m) => m.setupFda(ctx)),
    health: async ({ config, http, signal }) => {
      const res = await http.request({
        url: `${config.baseUrl.replace(/\/+$/, "")}/drug/drugsfda.json`,
        query: { api_key: config.apiKey, limit: 1 },
        signal,
        ...(config.apiKey ? { secrets: [config.apiKey] } : {}),
      });
      const updated = /"last_updated"\s*:\s*"([^"]+)"/.exec(res.body)?.[1];
      return { ok: true, message: `openFDA answered${updated ? ` (data last updated ${updated})` : ""}.` };
    },
  });

/** The plugin with default settings; the host imports this. */
export default createFdaPlugin();
