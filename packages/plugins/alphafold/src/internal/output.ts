import { z } from "zod";

const url = z.string().optional();

/** The output of `alphafold_predict_structure`. */
export const predictionSchema = z.object({
  complete: z.boolean().describe("False when only part of the result could be obtained (see warnings)."),
  source: z.enum(["alphafold_db", "esmfold"]).describe("Which model produced the structure."),
  lookup: z
    .enum(["accession", "exact_sequence_match", "esmfold"])
    .describe("How it was found: by accession, by an exact UniProt sequence match, or folded by ESMFold."),
  uniprot_accession: z.string().optional().describe("UniProt accession of the model."),
  model_id: z.string().optional().describe("AlphaFold DB model id, e.g. AF-P04637-F1."),
  model_version: z.number().optional().describe("AlphaFold DB model version."),
  protein: z
    .object({
      name: z.string().optional().describe("Protein name."),
      gene: z.string().optional().describe("Gene name."),
      organism: z.string().optional().describe("Organism."),
    })
    .optional()
    .describe("What the protein is, from UniProt via AlphaFold DB."),
  sequence_length: z.number().int().describe("Residues in the model."),
  confidence_scores: z
    .object({
      overall: z.number().nullable().describe("Mean pLDDT (0–100); null when unknown."),
      per_residue: z.array(z.number()).describe("pLDDT of each residue (0–100), in order."),
      first_residue: z.number().int().describe("Residue number of per_residue[0]."),
    })
    .describe("pLDDT confidence."),
  plddt_band_fractions: z
    .object({ very_high: z.number(), confident: z.number(), low: z.number(), very_low: z.number() })
    .optional()
    .describe("Fraction of residues in each band."),
  regions: z
    .array(
      z.object({
        start: z.number().int(),
        end: z.number().int(),
        band: z.enum(["very_high", "confident", "low", "very_low"]),
        mean_plddt: z.number(),
      }),
    )
    .describe(
      "Consecutive residues in one pLDDT band: very_high ≥90, confident 70–90, low 50–70, very_low <50.",
    ),
  warnings: z.array(z.string()).describe("Low-confidence stretches (pLDDT < 70) and anything missing."),
  structure: z
    .object({
      format: z.enum(["pdb", "mmcif"]),
      content: z.enum(["full_atom", "ca_trace", "none"]).describe("What `text` holds."),
      inline: z.boolean().describe("True when the structure text is included."),
      text: z.string().optional().describe("The structure file (when small enough)."),
      url: z.string().optional().describe("Where to download the full structure."),
      chars: z.number().int().optional().describe("Size of the full structure file in characters."),
    })
    .describe("The predicted structure, inline when small, else a link."),
  links: z
    .object({ entry: url, pdb: url, mmcif: url, confidence: url, pae: url })
    .describe("AlphaFold DB pages and files."),
  citation: z.string().describe("How to cite the model."),
});

/** What `alphafold_predict_structure` returns. */
export type Prediction = z.input<typeof predictionSchema>;

/** How to cite AlphaFold DB models. */
export const AFDB_CITATION =
  "Jumper et al., Nature 596, 583–589 (2021); Varadi et al., Nucleic Acids Res. (2024). AlphaFold DB data: CC BY 4.0.";

/** How to cite ESMFold predictions. */
export const ESMFOLD_CITATION = "Lin et al., Science 379, 1123–1130 (2023) (ESMFold, ESM Metagenomic Atlas).";

/**
 * The structure part: the text inline when it fits, else the link; with neither, the CA trace
 * (`caTrace`) when that fits.
 */
export const structurePart = (
  format: "pdb" | "mmcif",
  text: string | undefined,
  url: string | undefined,
  maxChars: number,
  caTrace?: () => string,
): Prediction["structure"] => {
  const link = url ? { url } : {};
  const chars = text === undefined ? {} : { chars: text.length };
  if (text !== undefined && text.length <= maxChars)
    return { format, content: "full_atom", inline: true, text, ...link, ...chars };
  const trace = url ? undefined : caTrace?.();
  if (trace !== undefined && trace.length <= maxChars)
    return { format, content: "ca_trace", inline: true, text: trace, ...chars };
  return { format, content: "none", inline: false, ...link, ...chars };
};
