import { describe, expect, it } from "vitest";
import { latexToText, parseBibtex, splitAuthors } from "./bibtex.js";

const BIB = String.raw`
% A comment line outside entries
@string{ nat = "Nature" }
@comment{ anything {nested} here }
@Article{wadden2020,
  title     = {Fact or Fiction: Verifying Scientific {Claims}},
  author    = {Wadden, David and Lin, Shanchuan and Lo, Kyle and others},
  journal   = nat # " Reviews",
  year      = 2020,
  month     = may,
  doi       = "10.18653/v1/2020.emnlp-main.609",
  abstract  = {We introduce {SciFact}, a dataset of 1.4K expert-written claims.},
  keywords  = {claims; fact checking, retrieval},
}
@inproceedings(godel1931,
  title = "{\"U}ber formal unentscheidbare S{\"a}tze",
  author = {Kurt G\"{o}del},
  year = {1931}
)
@misc{broken,
  title = {unbalanced
@book{after,
  title = {Still read},
}
`;

describe("parseBibtex", () => {
  it("reads entries with braced, quoted, numeric and macro values", () => {
    const { entries, problems } = parseBibtex(BIB);
    expect(entries.map((e) => e.key)).toEqual(["wadden2020", "godel1931", "after"]);
    const wadden = entries.find((e) => e.key === "wadden2020")!;
    expect(wadden.type).toBe("article");
    expect(wadden.fields.journal).toBe("Nature Reviews");
    expect(wadden.fields.year).toBe("2020");
    expect(wadden.fields.month).toBe("5");
    expect(wadden.fields.doi).toBe("10.18653/v1/2020.emnlp-main.609");
    expect(latexToText(wadden.fields.title!)).toBe("Fact or Fiction: Verifying Scientific Claims");
    expect(splitAuthors(wadden.fields.author!)).toEqual(["Wadden, David", "Lin, Shanchuan", "Lo, Kyle"]);
    expect(entries.find((e) => e.key === "after")?.fields.title).toBe("Still read");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toEqual({ line: 20, message: "unbalanced braces" });
  });

  it("handles parenthesised entries and LaTeX accents", () => {
    const { entries } = parseBibtex(BIB);
    const godel = entries.find((e) => e.type === "inproceedings")!;
    expect(latexToText(godel.fields.title!)).toBe("Über formal unentscheidbare Sätze");
    expect(splitAuthors(godel.fields.author!)).toEqual(["Kurt Gödel"]);
  });
});

describe("latexToText", () => {
  it("turns common markup into text", () => {
    expect(latexToText(String.raw`Caf\'{e} \& Cr\`eme --- na\"ive~text {\ss} \emph{bold}`)).toBe(
      "Café & Crème — naïve text ß bold",
    );
  });
});

describe("splitAuthors", () => {
  it("splits on top-level 'and' only", () => {
    expect(splitAuthors("{Barnes and Noble, Inc.} and Smith, J.")).toEqual([
      "Barnes and Noble, Inc.",
      "Smith, J.",
    ]);
  });
});
