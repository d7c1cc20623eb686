import { outcome, type ToolContext, type ToolOutcome } from "@quiver/core";
import { z } from "zod";
import type { AlphafoldConfig } from "../config.js";

/** The structure file formats: PDB and mmCIF. */
export const formatSchema = z.enum(["pdb", "mmcif"]);

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
      format: formatSchema,
      text: z.string().optional().describe("The structure file, when small enough to inline."),
      url: z.string().optional().describe("AlphaFold DB's download of the file."),
    })
    .describe(
      "The predicted structure: the file inline when small, else the whole file as the answer's resource (a resource_link when large: read it with resources/read).",
    ),
});

/** What `alphafold_predict_structure` returns. */
export type Prediction = z.input<typeof predictionSchema>;

/** MIME types of the structure files. */
export const MIME = { pdb: "chemical/x-pdb", mmcif: "chemical/x-mmcif" } as const;

/** The stages of a prediction, reported as progress 1…4 (fractions in between while ESMFold folds). */
const STAGES = 4;

/** Reports one stage of the prediction. */
export const stage = (ctx: Pick<ToolContext, "progress">, progress: number, message: string) =>
  ctx.progress({ progress, total: STAGES, message });

/**
 * The finished prediction, its last stage reported. Its structure file is inline when it fits
 * `inlineStructureMaxChars`; else the whole file is an embedded resource of the answer (at `uri`, by
 * default the file's URL), which the runtime turns into a `resource_link` when it is over the tool's
 * output budget, so the full model is never lost (ESMFold keeps no copy of it).
 */
export const finished = (
  ctx: ToolContext<AlphafoldConfig>,
  data: Prediction,
  text: string | undefined,
  info: { message: string; source: string },
  uri = data.structure.url,
): ToolOutcome<Prediction> => {
  const { format, url } = data.structure;
  stage(ctx, 4, "Done");
  if (text === undefined || uri === undefined || text.length <= ctx.config.inlineStructureMaxChars)
    return outcome({ ...data, structure: { format, text, url } }, info);
  const artifact = { type: "resource", resource: { uri, mimeType: MIME[format], text } } as const;
  return outcome({ ...data, structure: { format, url } }, { ...info, content: [artifact] });
};
