import { fail, type PluginResourceTemplate } from "@quiver/core";
import type { AlphafoldConfig } from "./config.js";
import { MIME } from "./internal/output.js";
import { normaliseAccession } from "./internal/sequence.js";
import { fetchAfdbEntry, fetchText } from "./internal/upstreams.js";

/**
 * The AlphaFold DB model file of a UniProt accession (`alphafold://structures/P04637/pdb`, or
 * `/mmcif`), whole, as AlphaFold DB serves it: for reading a model the tool's answer only summarised.
 * An accession AlphaFold DB has no model for is not found; one that is not an accession is invalid.
 */
export const structureTemplate: PluginResourceTemplate<AlphafoldConfig> = {
  uriTemplate: "alphafold://structures/{accession}/{format}",
  name: "structure",
  title: "AlphaFold DB model file",
  description: "The AlphaFold DB model of a UniProt accession, whole: format pdb or mmcif.",
  complete: { format: (typed) => ["pdb", "mmcif"].filter((f) => f.startsWith(typed.toLowerCase())) },
  read: async (uri, { accession, format }, ctx) => {
    if (format !== "pdb" && format !== "mmcif")
      throw fail.invalidInput(`${uri}: the format is pdb or mmcif, not "${format}".`);
    const entry = await fetchAfdbEntry(ctx, normaliseAccession(accession ?? ""));
    const url = entry && (format === "pdb" ? entry.pdbUrl : entry.cifUrl);
    return url ? [{ uri, mimeType: MIME[format], text: await fetchText(ctx, url) }] : [];
  },
};
