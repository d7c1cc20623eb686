import { createHash } from "node:crypto";
import { fail, type ToolContext, type ToolOutcome } from "@quiver/core";
import type { AlphafoldConfig } from "../config.js";
import { finished, type Prediction, stage } from "./output.js";
import { confidenceParts } from "./plddt.js";
import { plddtFromPdb } from "./structure-parse.js";

/**
 * Reports progress 2…2.95 every `progressIntervalMs` while ESMFold folds (expected to take up to
 * `esmfoldTimeoutMs`), always increasing and staying below the next stage. Returns a function that stops it.
 */
const heartbeat = (ctx: ToolContext<AlphafoldConfig>) => {
  const started = Date.now();
  const timer = setInterval(() => {
    const elapsed = Date.now() - started;
    const fraction = Math.min(0.95, elapsed / Math.max(ctx.config.esmfoldTimeoutMs, 1));
    stage(ctx, 2 + fraction, `ESMFold is folding (${Math.round(elapsed / 1000)} s elapsed)`);
  }, ctx.config.progressIntervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
};

/**
 * Folds a validated sequence with ESMFold (`POST /foldSequence/v1/pdb/`, body = the sequence) and turns
 * the PDB (pLDDT 0–1 in the B-factor column) into a prediction. Reports the sequence facts as partial
 * data before it starts, and progress while it waits: ESMFold sends nothing until the fold is done, so
 * the headers (and body) may take up to `esmfoldTimeoutMs` on the catalog's client, whose own waits are 30 s.
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
  const stop = heartbeat(ctx);
  // Every wait is the fold's: ESMFold sends nothing until it is done.
  const wait = ctx.config.esmfoldTimeoutMs;
  const waits = { timeoutMs: wait, headersTimeoutMs: wait, bodyTimeoutMs: wait };
  const { body: pdb } = await ctx.http
    .request({
      method: "POST",
      baseUrl: ctx.config.esmfoldUrl,
      url: "/foldSequence/v1/pdb/",
      headers: { "content-type": "text/plain" },
      body: sequence,
      signal: ctx.signal,
      ...waits,
    })
    .finally(stop);
  if (!/^(?:HEADER|ATOM|MODEL|REMARK|PARENT|TITLE)/m.test(pdb)) {
    const suggestion = "ESMFold's answer was broken; try again in a moment.";
    throw fail.upstream("ESMFold answered without a PDB structure.", { retryable: true, suggestion });
  }
  stage(ctx, 3, "ESMFold returned a structure; reading pLDDT");
  const scores = plddtFromPdb(pdb);
  const parts = confidenceParts(scores, 1);
  const out = [...warnings, ...parts.lowWarnings];
  if (scores.plddt.length !== sequence.length) {
    const differ = `ESMFold's structure has ${scores.plddt.length} residues for a ${sequence.length}-residue sequence.`;
    out.push(differ);
  }
  const id = createHash("sha256").update(sequence).digest("hex").slice(0, 12);
  const message = `ESMFold prediction (${sequence.length} residues): ${parts.summary}.`;
  const uri = `esmfold://prediction/ESM-${id}.pdb`;
  const info = { message, source: "ESMFold (ESM Atlas)" };
  return finished(ctx, { ...base, ...parts.fields, warnings: out }, pdb, info, uri);
};
