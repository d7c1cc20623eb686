import { definePlugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { alphafoldConfigSchema } from "./config.js";
import { structureTemplate } from "./structure-resource.js";
import { predictStructure } from "./tools/predict-structure.js";

/** Options of {@link createAlphafoldPlugin}: defaults for the plugin's settings (`alphafoldConfigSchema`). */
export type AlphafoldPluginOptions = PluginOptions<typeof alphafoldConfigSchema>;

/**
 * Creates the structure-prediction plugin: `alphafold_predict_structure` over AlphaFold DB, UniProt
 * and ESMFold, through the catalog's HTTP client. No API key is needed.
 *
 * Use the default export in a host; call this to bake in settings (mirrors, limits).
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createAlphafoldPlugin())
 * await catalog.call("alphafold_predict_structure", { uniprot_accession: "P04637" })
 */
export const createAlphafoldPlugin = (options: AlphafoldPluginOptions = {}) =>
  definePlugin({
    id: "alphafold",
    version: pkg.version,
    description: "Protein structure prediction: AlphaFold DB models and ESMFold, with pLDDT confidence.",
    config: alphafoldConfigSchema,
    defaults: options,
    tools: [predictStructure],
    // A model's file whole, by accession (see the README's Resources).
    resourceTemplates: [structureTemplate],
    health: async ({ config, http, signal }) => {
      const res = await http.request({
        baseUrl: config.alphafoldUrl,
        url: "/api/prediction/P69905",
        signal,
        acceptStatus: [404],
      });
      return res.status === 200
        ? { ok: true, message: "AlphaFold DB answered (P69905 hemoglobin alpha)." }
        : {
            ok: false,
            message: `AlphaFold DB answered HTTP ${res.status} for a known entry.`,
            fix: "Check alphafoldUrl.",
          };
    },
  });

/** The plugin with default settings; the host imports this. */
export default createAlphafoldPlugin();
