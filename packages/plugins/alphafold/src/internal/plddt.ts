import { toPercent } from "./structure-parse.js";

/** AlphaFold DB's band of one pLDDT value: very high ≥ 90, confident 70–90, low 50–70, very low < 50. */
export const bandOf = (plddt: number) =>
  plddt >= 90 ? "very_high" : plddt >= 70 ? "confident" : plddt >= 50 ? "low" : "very_low";

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Runs of consecutive residues (numbered from `firstResidue`) whose scores have the same `key`. */
const runsOf = <K>(perResidue: ReadonlyArray<number>, firstResidue: number, key: (plddt: number) => K) => {
  const runs: Array<{ key: K; start: number; scores: number[] }> = [];
  perResidue.forEach((plddt, i) => {
    if (runs.at(-1)?.key !== key(plddt)) runs.push({ key: key(plddt), start: i + firstResidue, scores: [] });
    runs.at(-1)!.scores.push(plddt);
  });
  return runs.map((run) => ({ ...run, end: run.start + run.scores.length - 1 }));
};

/** Consecutive residues (1-based) grouped by band, with their mean pLDDT (in the same band). */
export const regionsOf = (perResidue: ReadonlyArray<number>, firstResidue = 1) =>
  runsOf(perResidue, firstResidue, bandOf).map(({ key, scores, ...run }) => ({
    ...run,
    mean_plddt: round(mean(scores)),
  }));

/** Runs of residues with pLDDT below 70 (low or very low), 1-based inclusive. */
export const lowConfidenceRuns = (perResidue: ReadonlyArray<number>, firstResidue = 1) =>
  runsOf(perResidue, firstResidue, (plddt) => plddt < 70)
    .filter((run) => run.key)
    .map(({ start, end, scores }) => ({ start, end, mean: round(mean(scores), 1) }));

const MAX_WARNINGS = 20;

/** One low-confidence run's warning; a single residue's score is no mean. */
const lowLine = ({ start, end, mean: average }: { start: number; end: number; mean: number }) =>
  start === end
    ? `Low confidence for residue ${start} (pLDDT ${average})`
    : `Low confidence for residues ${start}-${end} (mean pLDDT ${average})`;

/** "Low confidence for residues 45-52 (mean pLDDT 61.3)" for each run below 70, capped at 20 lines. */
export const lowConfidenceWarnings = (perResidue: ReadonlyArray<number>, firstResidue = 1): string[] => {
  const runs = lowConfidenceRuns(perResidue, firstResidue);
  const lines = runs.slice(0, MAX_WARNINGS).map(lowLine);
  if (runs.length > MAX_WARNINGS)
    lines.push(`…and ${runs.length - MAX_WARNINGS} more low-confidence stretches.`);
  return lines;
};

/**
 * The confidence fields of a prediction from the scores read from a file (moved to 0–100, numbered from
 * the file's first residue, else `firstResidue`), its low-confidence warnings, and a summary for its
 * message ("mean pLDDT 74.53; 3 low-confidence stretches (pLDDT < 70)").
 */
export const confidenceParts = (scores: { residues: number[]; plddt: number[] }, firstResidue: number) => {
  const perResidue = toPercent(scores.plddt);
  const first = scores.residues[0] ?? firstResidue;
  const overall = round(mean(perResidue));
  const lowWarnings = lowConfidenceWarnings(perResidue, first);
  const low = lowWarnings.length;
  return {
    /** The prediction's fields. */
    fields: {
      confidence_scores: { overall, per_residue: perResidue },
      regions: regionsOf(perResidue, first),
    },
    lowWarnings,
    summary: `mean pLDDT ${overall}; ${low === 0 ? "no low-confidence stretches" : `${low} low-confidence stretch${low === 1 ? "" : "es"} (pLDDT < 70)`}`,
  };
};
