import { outcome, type ToolContext, type ToolOutcome } from "@quiver/core";
import type { AlphafoldConfig } from "../config.js";
import { type Prediction, structurePart } from "./output.js";
import { confidenceParts } from "./plddt.js";
import { heartbeat, stage } from "./progress.js";
import { caTrace, plddtFromPdb, toPercent } from "./structure-parse.js";
import { foldWithEsmfold } from "./upstreams.js";

/**
 * Folds a validated sequence with ESMFold and turns the PDB (pLDDT 0–1 in the B-factor column) into a
 * prediction. Reports progress while it waits, and the sequence facts as partial data before it starts.
 */
export const predictionFromEsmfold = async (
  ctx: ToolContext<AlphafoldConfig>,
  sequence: string,
  format: "pdb" | "mmcif",
  earlier: ReadonlyArray<string>,
): Promise<ToolOutcome<Prediction>> => {
  const warnings = [...earlier];
  if (format === "mmcif") warnings.push("ESMFold returns PDB only; the structure is given in PDB format.");
  const base: Prediction = {
    source: "esmfold",
    sequence_length: sequence.length,
    confidence_scores: { per_residue: [] },
    regions: [],
    warnings: [...warnings, "ESMFold had not returned a structure yet."],
    structure: { format: "pdb" },
  };
  ctx.reportPartial(base);
  stage(ctx, 2, `No exact UniProt/AlphaFold DB match; folding ${sequence.length} residues with ESMFold`);
  const stop = heartbeat(ctx, 2, "ESMFold is folding");
  const pdb = await foldWithEsmfold(ctx, sequence).finally(stop);
  stage(ctx, 3, "ESMFold returned a structure; reading pLDDT");
  const scores = plddtFromPdb(pdb);
  const perResidue = toPercent(scores.plddt);
  const parts = confidenceParts(perResidue, scores.residues[0] ?? 1);
  const out = [...warnings, ...parts.lowWarnings];
  if (perResidue.length !== sequence.length) {
    out.push(
      `ESMFold's structure has ${perResidue.length} residues for a ${sequence.length}-residue sequence.`,
    );
  }
  const structure = structurePart("pdb", pdb, undefined, ctx.config.inlineStructureMaxChars, () =>
    caTrace(pdb),
  );
  if (structure.content === "ca_trace") {
    out.push(
      `The full-atom model (${pdb.length} characters) is larger than the inline limit; only the CA trace is included. ESMFold keeps no copy: fold again to get all atoms.`,
    );
  }
  const data: Prediction = { ...base, ...parts.fields, warnings: out, structure };
  stage(ctx, 4, "Done");
  const message = `ESMFold prediction (${sequence.length} residues): ${parts.summary}.`;
  return outcome(data, { message, source: "ESMFold (ESM Atlas)" });
};
