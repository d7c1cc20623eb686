import { z } from "zod";
import { caTrace } from "./structure-parse.js";

/**
 * The output of `alphafold_predict_structure`. Whether it is complete is the envelope's status
 * (`success`; `partial` or `timeout` with what was found), how it was found follows from the input
 * and `source`, and how to cite it from `source` (the tool's instruction).
 */
export const predictionSchema = z.object({
  source: z.enum(["alphafold_db", "esmfold"]).describe("Which model produced the structure."),
  uniprot_accession: z.string().optional().describe("UniProt accession of the model."),
  model_id: z.string().optional().describe("AlphaFold DB model id, e.g. AF-P04637-F1."),
  protein: z.string().optional().describe("What the protein is, from UniProt: name (gene, organism)."),
  sequence_length: z.number().int().describe("Residues in the model."),
  confidence_scores: z
    .object({
      overall: z.number().optional().describe("Mean pLDDT (0–100); absent while unknown."),
      per_residue: z.array(z.number()).describe("pLDDT of each residue (0–100), from regions[0].start on."),
    })
    .describe("pLDDT confidence."),
  regions: z
    .array(z.object({ start: z.number().int(), end: z.number().int(), mean_plddt: z.number() }))
    .describe(
      "Consecutive residues in one pLDDT band (the band of their mean): very high ≥90, confident 70–90, low 50–70, very low <50.",
    ),
  warnings: z.array(z.string()).describe("Low-confidence stretches (pLDDT < 70) and anything missing."),
  structure: z
    .object({
      format: z.enum(["pdb", "mmcif"]),
      content: z
        .enum(["full_atom", "ca_trace"])
        .optional()
        .describe("What `text` holds, when it is included."),
      text: z.string().optional().describe("The structure file (when small enough)."),
      url: z.string().optional().describe("Where to download the full structure."),
    })
    .describe("The predicted structure, inline when small, else a link."),
});

/** What `alphafold_predict_structure` returns. */
export type Prediction = z.input<typeof predictionSchema>;

/**
 * The structure part: the text inline when it fits, else the link; with neither (ESMFold keeps no
 * copy), the CA trace of the text (a PDB file) when that fits.
 */
export const structurePart = (
  format: "pdb" | "mmcif",
  text: string | undefined,
  url: string | undefined,
  maxChars: number,
): Prediction["structure"] => {
  if (text !== undefined && text.length <= maxChars) return { format, content: "full_atom", text, url };
  const trace = url || text === undefined ? undefined : caTrace(text);
  if (trace !== undefined && trace.length <= maxChars) return { format, content: "ca_trace", text: trace };
  return { format, url };
};
