import { definePlugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { fdaConfigSchema } from "./config.js";
import { hypothesisPrompt } from "./hypothesis-prompt.js";
import { labelResource } from "./label-resource.js";
import { countDrugs } from "./tools/count-drugs.js";
import { searchDrugs } from "./tools/search-drugs.js";

/**
 * The view's page, built into one self-contained HTML file by `views/` (vite-plugin-singlefile); the
 * same path from `src/` and `dist/`.
 */
const viewPage = new URL("../dist/views/drugs/index.html", import.meta.url);

/** Options of {@link createFdaPlugin}: defaults for the plugin's settings (environment variables win). */
export type FdaPluginOptions = PluginOptions<typeof fdaConfigSchema>;

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
export const createFdaPlugin = (options: FdaPluginOptions = {}) =>
  definePlugin({
    id: "fda",
    version: pkg.version,
    description: "FDA-approved drugs from openFDA (Drugs@FDA and drug labels): search and counts.",
    config: fdaConfigSchema,
    defaults: options,
    // fda_search_drugs shows its matches in the drug table (MCP Apps; a client without apps gets the result alone).
    tools: [{ ...searchDrugs, view: "drugs" }, countDrugs],
    views: [
      {
        name: "drugs",
        uri: "ui://fda/drugs",
        title: "FDA drug table",
        description:
          "fda_search_drugs' matches as a table sortable by name, sponsor and approval date, with the unmet constraints, whether the search was complete, a link to each match's label (fda://label/{set_id}, read through the host) and a refinement that searches again. One self-contained HTML page (no network), at most 150 KB gzipped.",
        html: () => import("node:fs/promises").then((fs) => fs.readFile(viewPage, "utf8")),
      },
    ],
    // A drug's full label by its set id (`fda://label/{set_id}`), through the same openFDA client.
    resourceTemplates: [labelResource],
    // The co-scientist's "check a hypothesis against approved drugs"; its drug class completes from openFDA.
    prompts: [hypothesisPrompt],
    // The openFDA client both tools share (`ctx.resources`), loaded at the first call, not at
    // import: `quiver list` never opens it.
    setup: ({ config, http }) =>
      import("./internal/openfda-client.js").then((m) => m.createOpenFdaClient(config, http)),
    health: async ({ resources, signal }) => {
      const { lastUpdated: at } = await resources.search({ endpoint: "drugsfda" }, 1, signal);
      return { ok: true, message: `openFDA answered${at ? ` (data last updated ${at})` : ""}.` };
    },
  });

/** The plugin with default settings; the host imports this. */
export default createFdaPlugin();
