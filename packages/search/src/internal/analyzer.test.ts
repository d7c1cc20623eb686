import { describe, expect, it } from "vitest";
import { analyze, matchingWords } from "./analyzer.js";

describe("analyze", () => {
  it("lowercases, removes stop words and stems", () => {
    expect(analyze("The Cells were DIVIDING in the cultures")).toEqual(["cell", "were", "divid", "cultur"]);
  });

  it("folds diacritics and special letters, spells out Greek letters", () => {
    expect(analyze("Naïve Gödel Straße")).toEqual(["naiv", "godel", "strass"]);
    expect(analyze("TNF-α and IFN-γ")).toEqual(analyze("TNF-alpha and IFN-gamma"));
    expect(analyze("TNFα")).toEqual(["tnf", "alpha"]);
  });

  it("drops possessive 's and joins other apostrophes", () => {
    expect(analyze("Alzheimer's disease")).toEqual(analyze("Alzheimer disease"));
    expect(analyze("O'Brien’s")).toEqual(["obrien"]);
  });

  it("turns FTS syntax into plain words", () => {
    expect(analyze('"a" OR * NEAR(title: -x)')).toEqual(["near", "titl", "x"]);
  });

  it("keeps numbers and letter-digit mixes, splits on punctuation", () => {
    expect(analyze("p53, IL-6 and 3T3 cells (2020)")).toEqual(["p53", "il", "6", "3t3", "cell", "2020"]);
  });

  it("returns nothing for empty, punctuation-only and stop-word-only text", () => {
    expect(analyze("")).toEqual([]);
    expect(analyze('"*" - : ( ) ^ {}')).toEqual([]);
    expect(analyze("the of and is it")).toEqual([]);
  });
});

describe("matchingWords", () => {
  it("returns the ranges of words yielding a term, in the original text", () => {
    const text = "Tumour cells: the CELL divides; α-helix.";
    const ranges = matchingWords(text, new Set(["cell", "alpha"]));
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(["cells", "CELL", "α"]);
  });
});
