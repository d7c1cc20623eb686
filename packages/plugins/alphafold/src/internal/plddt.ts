/** AlphaFold DB's pLDDT confidence bands. */
export type Band = "very_high" | "confident" | "low" | "very_low";

/** The band of one pLDDT value: very high ≥ 90, confident 70–90, low 50–70, very low < 50. */
export const bandOf = (plddt: number): Band =>
  plddt >= 90 ? "very_high" : plddt >= 70 ? "confident" : plddt >= 50 ? "low" : "very_low";

/** A run of consecutive residues in one band. */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly band: Band;
  readonly mean_plddt: number;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Consecutive residues (1-based) grouped by band, with their mean pLDDT. */
export const regionsOf = (perResidue: ReadonlyArray<number>, firstResidue = 1): Region[] => {
  const out: Region[] = [];
  let start = 0;
  for (let i = 1; i <= perResidue.length; i++) {
    if (i === perResidue.length || bandOf(perResidue[i]!) !== bandOf(perResidue[start]!)) {
      const slice = perResidue.slice(start, i);
      out.push({
        start: start + firstResidue,
        end: i - 1 + firstResidue,
        band: bandOf(perResidue[start]!),
        mean_plddt: round(mean(slice)),
      });
      start = i;
    }
  }
  return out;
};

/** Runs of residues with pLDDT below 70 (low or very low), 1-based inclusive. */
export const lowConfidenceRuns = (
  perResidue: ReadonlyArray<number>,
  firstResidue = 1,
): Array<{ start: number; end: number; mean: number }> => {
  const runs: Array<{ start: number; end: number; mean: number }> = [];
  let start = -1;
  for (let i = 0; i <= perResidue.length; i++) {
    const low = i < perResidue.length && perResidue[i]! < 70;
    if (low && start < 0) start = i;
    if (!low && start >= 0) {
      runs.push({
        start: start + firstResidue,
        end: i - 1 + firstResidue,
        mean: round(mean(perResidue.slice(start, i)), 1),
      });
      start = -1;
    }
  }
  return runs;
};

const MAX_WARNINGS = 20;

/** "Low confidence for residues 45-52 (mean pLDDT 61.3)" for each run below 70, capped at 20 lines. */
export const lowConfidenceWarnings = (perResidue: ReadonlyArray<number>, firstResidue = 1): string[] => {
  const runs = lowConfidenceRuns(perResidue, firstResidue);
  const lines = runs
    .slice(0, MAX_WARNINGS)
    .map((r) =>
      r.start === r.end
        ? `Low confidence for residue ${r.start} (pLDDT ${r.mean})`
        : `Low confidence for residues ${r.start}-${r.end} (mean pLDDT ${r.mean})`,
    );
  if (runs.length > MAX_WARNINGS)
    lines.push(`…and ${runs.length - MAX_WARNINGS} more low-confidence stretches.`);
  return lines;
};

/** The fraction of residues in each band. */
export const bandFractions = (perResidue: ReadonlyArray<number>): Record<Band, number> => {
  const counts: Record<Band, number> = { very_high: 0, confident: 0, low: 0, very_low: 0 };
  for (const v of perResidue) counts[bandOf(v)]++;
  const n = perResidue.length || 1;
  return {
    very_high: round(counts.very_high / n, 3),
    confident: round(counts.confident / n, 3),
    low: round(counts.low / n, 3),
    very_low: round(counts.very_low / n, 3),
  };
};

/** The mean pLDDT, two decimals. */
export const overallOf = (perResidue: ReadonlyArray<number>): number => round(mean(perResidue));

export { round };
