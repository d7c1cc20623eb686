import { outcome, partial, type ToolContext, type ToolOutcome } from "@quiver/core";
import type { AlphafoldConfig } from "../config.js";
import { type Prediction, structurePart } from "./output.js";
import { confidenceParts } from "./plddt.js";
import { stage } from "./progress.js";
import { plddtFromMmcif, plddtFromPdb, toPercent } from "./structure-parse.js";
import { type AfdbEntry, failureMessage, fetchConfidence, fetchText } from "./upstreams.js";

/** "Cellular tumor antigen p53 (TP53, Homo sapiens)", as `protein`, when the entry names it. */
const proteinOf = ({ description, gene, organism }: AfdbEntry) => {
  const about = [gene, organism].filter(Boolean).join(", ");
  return description ? { protein: about ? `${description} (${about})` : description } : {};
};

/** " (residues: 52.7 % very high, …)": the entry's own band fractions, for when per-residue scores are missing. */
const bandsOf = ({ fractions: f }: AfdbEntry): string => {
  if (!f) return "";
  const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
  return ` (residues: ${pct(f.very_high)} very high, ${pct(f.confident)} confident, ${pct(f.low)} low, ${pct(f.very_low)} very low)`;
};

/**
 * Turns an AlphaFold DB entry into a prediction: reports the entry's own figures as partial data at
 * once, then downloads the structure file (per-residue pLDDT from its B-factor column), falling back to
 * the confidence JSON; if neither arrives the entry's figures are returned as a partial result.
 */
export const predictionFromAfdb = async (
  ctx: ToolContext<AlphafoldConfig>,
  entry: AfdbEntry,
  format: "pdb" | "mmcif",
  earlier: ReadonlyArray<string>,
): Promise<ToolOutcome<Prediction>> => {
  const accession = entry.accession ?? "";
  const model = entry.modelId ?? accession;
  const fileUrl = format === "pdb" ? entry.pdbUrl : entry.cifUrl;
  const base: Prediction = {
    source: "alphafold_db",
    ...(accession ? { uniprot_accession: accession } : {}),
    ...(entry.modelId ? { model_id: entry.modelId } : {}),
    ...proteinOf(entry),
    sequence_length: entry.sequence?.length ?? 0,
    confidence_scores:
      entry.global === undefined ? { per_residue: [] } : { overall: entry.global, per_residue: [] },
    regions: [],
    warnings: [
      ...earlier,
      `Per-residue confidence was not obtained: overall is AlphaFold DB's global pLDDT${bandsOf(entry)}.`,
    ],
    structure: { format, ...(fileUrl ? { url: fileUrl } : {}) },
  };
  ctx.reportPartial(base);
  stage(ctx, 2, `Found AlphaFold DB model ${model}; downloading the ${format.toUpperCase()} file`);

  const problems: string[] = [];
  let text: string | undefined;
  let scores:
    | { residues: ReadonlyArray<number>; plddt: ReadonlyArray<number>; sequence?: string }
    | undefined;
  if (fileUrl) {
    try {
      text = await fetchText(ctx, fileUrl);
      const parsed = format === "pdb" ? plddtFromPdb(text) : plddtFromMmcif(text);
      if (parsed.plddt.length > 0) scores = parsed;
      else problems.push(`the ${format.toUpperCase()} file held no residues`);
    } catch (e) {
      problems.push(`the structure file could not be downloaded (${failureMessage(e)})`);
    }
  } else problems.push("AlphaFold DB gave no structure file URL");
  if (!scores && entry.plddtUrl) {
    stage(ctx, 3, "Downloading the per-residue confidence file");
    try {
      scores = await fetchConfidence(ctx, entry.plddtUrl);
    } catch (e) {
      problems.push(`the confidence file could not be downloaded (${failureMessage(e)})`);
    }
  }
  if (!scores) {
    const warnings = [...base.warnings, ...problems.map((p) => `Incomplete: ${p}.`)];
    const message = `AlphaFold DB has model ${model} (global pLDDT ${entry.global ?? "unknown"}), but ${problems.join("; ")}.`;
    return partial({ ...base, warnings }, message, { source: "AlphaFold DB" });
  }

  const perResidue = toPercent(scores.plddt);
  const parts = confidenceParts(perResidue, scores.residues[0] ?? entry.start);
  const warnings = [
    ...earlier,
    ...parts.lowWarnings,
    ...problems.map((p) => `Note: ${p}; per-residue scores came from the confidence file.`),
  ];
  if (entry.sequence && scores.sequence && scores.sequence !== entry.sequence) {
    warnings.push(
      `The structure file's ${scores.sequence.length} residues differ from the entry's ${entry.sequence.length}-residue sequence.`,
    );
  }
  const data: Prediction = {
    ...base,
    ...parts.fields,
    sequence_length: entry.sequence?.length ?? perResidue.length,
    warnings,
    structure: structurePart(format, text, fileUrl, ctx.config.inlineStructureMaxChars),
  };
  stage(ctx, 4, "Done");
  const message = `AlphaFold DB model ${model} (${data.sequence_length} residues): ${parts.summary}.`;
  return outcome(data, { message, source: "AlphaFold DB" });
};
