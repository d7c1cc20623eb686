import { definePlugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { alphafoldConfigSchema } from "./config.js";
import { structureTemplate } from "./structure-resource.js";
import { predictStructure } from "./tools/predict-structure.js";

/**
 * The view's page, built into one self-contained HTML file by `views/` (vite-plugin-singlefile); the
 * same path from `src/` and `dist/`.
 */
const viewPage = new URL("../dist/views/structure/index.html", import.meta.url);

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
    // The prediction shows in the structure view (MCP Apps; a client without apps gets the result alone).
    tools: [{ ...predictStructure, view: "structure" }],
    views: [
      {
        name: "structure",
        uri: "ui://alphafold/structure",
        title: "Predicted structure (3D)",
        description:
          "alphafold_predict_structure's model in 3D (3Dmol.js): coloured by pLDDT band with AlphaFold's four colours and a legend, rotate and zoom, the low-confidence regions highlighted; a structure over the answer's budget is read through its resource link. One self-contained HTML page (no network), at most 1 MB gzipped.",
        html: () => import("node:fs/promises").then((fs) => fs.readFile(viewPage, "utf8")),
      },
    ],
    // A model's file whole, by accession (see the README's Resources).
    resourceTemplates: [structureTemplate],
    health: async ({ config: { alphafoldUrl: baseUrl }, http, signal }) => {
      const url = "/api/prediction/P69905";
      const { status } = await http.request({ baseUrl, url, signal, acceptStatus: [404] });
      if (status === 200) return { ok: true, message: "AlphaFold DB answered (P69905 hemoglobin alpha)." };
      const fix = "Check alphafoldUrl.";
      return { ok: false, message: `AlphaFold DB answered HTTP ${status} for a known entry.`, fix };
    },
  });

/** The plugin with default settings; the host imports this. */
export default createAlphafoldPlugin();
