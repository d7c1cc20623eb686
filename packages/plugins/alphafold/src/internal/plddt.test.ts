import { describe, expect, it } from "vitest";
import { bandOf, lowConfidenceRuns, lowConfidenceWarnings, regionsOf } from "./plddt.js";

describe("pLDDT bands", () => {
  it("uses AlphaFold DB's bands: very high ≥90, confident 70–90, low 50–70, very low <50", () => {
    expect([95, 90, 89.99, 70, 69.99, 50, 49.99, 0].map(bandOf)).toEqual([
      "very_high",
      "very_high",
      "confident",
      "confident",
      "low",
      "low",
      "very_low",
      "very_low",
    ]);
  });

  it("groups consecutive residues of one band into regions, numbered from the first residue", () => {
    expect(regionsOf([95, 92, 80, 40, 45, 60], 10)).toEqual([
      { start: 10, end: 11, mean_plddt: 93.5 },
      { start: 12, end: 12, mean_plddt: 80 },
      { start: 13, end: 14, mean_plddt: 42.5 },
      { start: 15, end: 15, mean_plddt: 60 },
    ]);
  });

  it("warns about each run below 70, including one at the end", () => {
    const scores = [90, 60, 40, 90, 91, 69.9];
    expect(lowConfidenceRuns(scores)).toEqual([
      { start: 2, end: 3, mean: 50 },
      { start: 6, end: 6, mean: 69.9 },
    ]);
    expect(lowConfidenceWarnings(scores)).toEqual([
      "Low confidence for residues 2-3 (mean pLDDT 50)",
      "Low confidence for residue 6 (pLDDT 69.9)",
    ]);
  });

  it("caps the warnings and says how many more there are", () => {
    const alternating = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? 95 : 30));
    const w = lowConfidenceWarnings(alternating);
    expect(w).toHaveLength(21);
    expect(w.at(-1)).toBe("…and 10 more low-confidence stretches.");
  });
});
