/** One of AlphaFold's four pLDDT confidence bands. */
export interface PlddtBand {
  readonly label: string;
  /** Lowest pLDDT in the band (inclusive). */
  readonly from: number;
  /** AlphaFold DB's colour of the band. */
  readonly colour: string;
}

/** AlphaFold DB's bands and colours, most confident first. */
export const BANDS: ReadonlyArray<PlddtBand> = [
  { label: "Very high (pLDDT ≥ 90)", from: 90, colour: "#0053D6" },
  { label: "Confident (70 ≤ pLDDT < 90)", from: 70, colour: "#65CBF3" },
  { label: "Low (50 ≤ pLDDT < 70)", from: 50, colour: "#FFDB13" },
  { label: "Very low (pLDDT < 50)", from: Number.NEGATIVE_INFINITY, colour: "#FF7D45" },
];

/** The band of a pLDDT score (0–100). */
export const bandOf = (plddt: number): PlddtBand => BANDS.find((b) => plddt >= b.from) ?? BANDS[3]!;

/** What `alphafold_predict_structure` answers in its envelope's `data` (the fields the view reads). */
export interface Prediction {
  readonly source: string;
  readonly model_id?: string;
  readonly protein?: string;
  readonly sequence_length: number;
  readonly confidence_scores: { readonly overall?: number; readonly per_residue: ReadonlyArray<number> };
  readonly regions: ReadonlyArray<{
    readonly start: number;
    readonly end: number;
    readonly mean_plddt: number;
  }>;
  readonly structure: { readonly format: "pdb" | "mmcif"; readonly text?: string; readonly url?: string };
}

/** The regions whose mean pLDDT is under 70 (low and very low): the ones the answer warns of. */
export const lowRegions = (p: Prediction) => p.regions.filter((r) => r.mean_plddt < 70);

/**
 * The pLDDT of residue `resi`: the answer's per-residue score, else the atom's B-factor (where
 * AlphaFold writes pLDDT; ESMFold on a 0–1 scale).
 */
export const plddtOf = (p: Prediction, resi: number, bFactor: number): number => {
  const start = p.regions[0]?.start ?? 1;
  const score = p.confidence_scores.per_residue[resi - start];
  if (score !== undefined) return score;
  return bFactor <= 1 ? bFactor * 100 : bFactor;
};
