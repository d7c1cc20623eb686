import { definePlugin, type Plugin } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { type AlphafoldConfig, alphafoldConfigSchema } from "./config.js";
import { predictStructure } from "./tools/predict-structure.js";

export type { AlphafoldConfig } from "./config.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;

/** Options of {@link createAlphafoldPlugin}: defaults for the plugin's settings. */
export interface AlphafoldPluginOptions {
  /** AlphaFold DB base URL (default `https://alphafold.ebi.ac.uk`). */
  readonly alphafoldUrl?: string;
  /** ESM Atlas base URL (default `https://api.esmatlas.com`). */
  readonly esmfoldUrl?: string;
  /** UniProt REST base URL (default `https://rest.uniprot.org`). */
  readonly uniprotUrl?: string;
  /** Largest structure text returned inline (default 40,000 characters); larger ones are linked. */
  readonly inlineStructureMaxChars?: number;
  /** How long ESMFold may take (default 120,000 ms). */
  readonly esmfoldTimeoutMs?: number;
  /** How often a long prediction reports progress (default 5,000 ms). */
  readonly progressIntervalMs?: number;
}

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
export const createAlphafoldPlugin = (options: AlphafoldPluginOptions = {}): Plugin<AlphafoldConfig> =>
  definePlugin<AlphafoldConfig>({
    specificationVersion: "v1",
    id: "alphafold",
    version: VERSION,
    description: "Protein structure prediction: AlphaFold DB models and ESMFold, with pLDDT confidence.",
    config: alphafoldConfigSchema,
    defaults: { ...options },
    tools: [predictStructure],
    health: async ({ config, http, signal }) => {
      const res = await http.request({
        url: `${config.alphafoldUrl.replace(/\/+$/, "")}/api/prediction/P69905`,
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
