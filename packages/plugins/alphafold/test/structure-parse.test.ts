import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { plddtFromMmcif, plddtFromPdb, toPercent } from "../src/internal/structure-parse.js";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/structure/${name}`, import.meta.url), "utf8");

describe("reading pLDDT from the recorded AF-Q7Z6M3-F1 files", () => {
  const pdb = fixture("Q7Z6M3.pdb");
  const cif = fixture("Q7Z6M3.cif");

  it("PDB: one CA B-factor per residue (SOURCE.md: 343 residues, mean 74.53, min 31.97, max 98.81)", () => {
    const s = plddtFromPdb(pdb);
    expect(s.residues).toHaveLength(343);
    expect(s.residues[0]).toBe(1);
    expect(s.sequence.startsWith("MWS")).toBe(true);
    const mean = s.plddt.reduce((a, b) => a + b, 0) / s.plddt.length;
    expect(mean).toBeCloseTo(74.53, 2);
    expect(Math.min(...s.plddt)).toBe(31.97);
    expect(Math.max(...s.plddt)).toBe(98.81);
  });

  it("mmCIF: the same values from _atom_site", () => {
    const fromCif = plddtFromMmcif(cif);
    expect(fromCif.plddt).toEqual(plddtFromPdb(pdb).plddt);
    expect(fromCif.sequence).toBe(plddtFromPdb(pdb).sequence);
  });

  it("mmCIF without atoms: falls back to _ma_qa_metric_local", () => {
    const noAtoms = cif.replace(/loop_\n_atom_site\.[\s\S]*$/, "");
    expect(plddtFromMmcif(noAtoms).plddt).toEqual(plddtFromPdb(pdb).plddt);
  });

  it("mmCIF: the same values from _atom_site", () => {
    const fromCif = plddtFromMmcif(cif);
    expect(fromCif.plddt).toEqual(plddtFromPdb(pdb).plddt);
    expect(fromCif.sequence).toBe(plddtFromPdb(pdb).sequence);
  });

  it("mmCIF without atoms: falls back to _ma_qa_metric_local", () => {
    const noAtoms = cif.replace(/loop_\n_atom_site\.[\s\S]*$/, "");
    expect(plddtFromMmcif(noAtoms).plddt).toEqual(plddtFromPdb(pdb).plddt);
  });
});

describe("scales", () => {
  it("moves ESMFold's 0–1 scores to 0–100 and leaves AlphaFold's alone", () => {
    expect(toPercent([0.5, 0.915, 1])).toEqual([50, 91.5, 100]);
    expect(toPercent([50, 91.5])).toEqual([50, 91.5]);
  });
});
