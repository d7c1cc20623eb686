import { partial, type ToolContext, type ToolOutcome } from "@quiver/core";
import type { AlphafoldConfig } from "../config.js";
import { finished, type Prediction, stage } from "./output.js";
import { confidenceParts } from "./plddt.js";
import { plddtFromMmcif, plddtFromPdb } from "./structure-parse.js";
import { type AfdbEntry, failureMessage, fetchConfidence, fetchText } from "./upstreams.js";

/** "Cellular tumor antigen p53 (TP53, Homo sapiens)", as `protein`, when the entry names it. */
const proteinOf = ({ uniprotDescription: name, gene, organismScientificName }: AfdbEntry) => {
  const about = [gene, organismScientificName].filter(Boolean).join(", ");
  return name && about ? `${name} (${about})` : name;
};

/** " (residues: 52.7 % very high, …)": the entry's own band fractions, for when per-residue scores are missing. */
const bandsOf = (e: AfdbEntry): string => {
  if (e.fractionPlddtVeryHigh === undefined) return "";
  const pct = (x = 0) => `${Math.round(x * 1000) / 10} %`;
  return ` (residues: ${pct(e.fractionPlddtVeryHigh)} very high, ${pct(e.fractionPlddtConfident)} confident, ${pct(e.fractionPlddtLow)} low, ${pct(e.fractionPlddtVeryLow)} very low)`;
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
  const model = entry.modelId ?? entry.uniprotAccession ?? "";
  const fileUrl = format === "pdb" ? entry.pdbUrl : entry.cifUrl;
  const missing = `Per-residue confidence was not obtained: overall is AlphaFold DB's global pLDDT${bandsOf(entry)}.`;
  const base: Prediction = {
    source: "alphafold_db",
    uniprot_accession: entry.uniprotAccession || undefined,
    model_id: entry.modelId || undefined,
    protein: proteinOf(entry),
    sequence_length: entry.sequence?.length ?? 0,
    confidence_scores: { overall: entry.globalMetricValue, per_residue: [] },
    regions: [],
    warnings: [...earlier, missing],
    structure: { format, url: fileUrl },
  };
  ctx.reportPartial(base);
  stage(ctx, 2, `Found AlphaFold DB model ${model}; downloading the ${format.toUpperCase()} file`);

  const problems: string[] = [];
  let text: string | undefined;
  let scores: { residues: number[]; plddt: number[]; sequence?: string } | undefined;
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
  if (!scores && entry.plddtDocUrl) {
    stage(ctx, 3, "Downloading the per-residue confidence file");
    try {
      scores = await fetchConfidence(ctx, entry.plddtDocUrl);
    } catch (e) {
      problems.push(`the confidence file could not be downloaded (${failureMessage(e)})`);
    }
  }
  if (!scores) {
    const warnings = [...base.warnings, ...problems.map((p) => `Incomplete: ${p}.`)];
    const message = `AlphaFold DB has model ${model} (global pLDDT ${entry.globalMetricValue ?? "unknown"}), but ${problems.join("; ")}.`;
    return partial({ ...base, warnings }, message, { source: "AlphaFold DB" });
  }

  const parts = confidenceParts(scores, entry.start);
  const notes = problems.map((p) => `Note: ${p}; per-residue scores came from the confidence file.`);
  const warnings = [...earlier, ...parts.lowWarnings, ...notes];
  if (entry.sequence && scores.sequence && scores.sequence !== entry.sequence) {
    const differ = `The structure file's ${scores.sequence.length} residues differ from the entry's ${entry.sequence.length}-residue sequence.`;
    warnings.push(differ);
  }
  const sequence_length = entry.sequence?.length ?? scores.plddt.length;
  const message = `AlphaFold DB model ${model} (${sequence_length} residues): ${parts.summary}.`;
  const data = { ...base, ...parts.fields, sequence_length, warnings };
  return finished(ctx, data, text, { message, source: "AlphaFold DB" });
};
