import { describe, expect, it } from "vitest";
import { cleanSequence, normaliseAccession, validateSequence } from "./sequence.js";

describe("sequence validation", () => {
  it("cleans FASTA headers, whitespace, case and a trailing stop", () => {
    expect(cleanSequence(">sp|X|Y\nmkt ay\n  ia*\n")).toBe("MKTAYIA");
    expect(validateSequence("mktX")).toBe("MKTX");
  });

  it("lists at most 8 offending letters and counts the rest", () => {
    expect(() => validateSequence("M1234567890")).toThrow(
      /10 characters that are not amino acids: '1' at position 2, .*'8' at position 9 and 2 more/,
    );
  });

  it("does not mistake short or amino-acid-rich sequences for DNA", () => {
    expect(validateSequence("ACGT")).toBe("ACGT");
    expect(validateSequence("MACGTACGTAWWKLP")).toBe("MACGTACGTAWWKLP");
  });

  it("accepts accessions, isoforms and AlphaFold model ids", () => {
    expect(normaliseAccession(" p04637 ")).toBe("P04637");
    expect(normaliseAccession("P04637-2")).toBe("P04637-2");
    expect(normaliseAccession("AF-Q7Z6M3-F1")).toBe("Q7Z6M3");
    expect(normaliseAccession("A0A024RBG1")).toBe("A0A024RBG1");
    expect(() => normaliseAccession("TP53")).toThrow(/not a UniProt accession/);
  });
});
