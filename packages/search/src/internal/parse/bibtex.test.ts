import { describe, expect, it } from "vitest";
import { parseBibtex } from "./bibtex.js";
import { latexToText, splitAuthors } from "./latex-text.js";

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
    expect(problems[0]).toEqual({
      line: 20,
      message: "a brace or quote opened in this entry is never closed; the entry is skipped",
    });
  });

  it("handles parenthesised entries and LaTeX accents", () => {
    const { entries } = parseBibtex(BIB);
    const godel = entries.find((e) => e.type === "inproceedings")!;
    expect(latexToText(godel.fields.title!)).toBe("Über formal unentscheidbare Sätze");
    expect(splitAuthors(godel.fields.author!)).toEqual(["Kurt Gödel"]);
  });
  // The hand-written reader this parser replaced took the "@" of an address in a comment line for an entry and
  // reported a problem there; the grammar reads "%" lines as comments.
  it("reads nested groups, chained @string macros, an @ in comments and values, accents; skips a broken entry", () => {
    const bib = String.raw`% Contact: someone@example.org (an @ in a comment line opens no entry)
@Comment{jabref-meta: databaseType:bibtex;}
@STRING{ J = "J. " # {Mol.} }
@string{bio = J # " Biol."}
@article{nested,
  title = {A {Nested {Group {Deep}}} title},
  journal = BIO,
  note = "a {"} quote",
  email = {lab@example.org},
}
@book{missing
  title = {No comma after the key}
}
@book{last, title = {Caf{\'e} {\"{o}} \c{c}}}`;
    const { entries, problems } = parseBibtex(bib);
    expect(entries.map((e) => e.key)).toEqual(["nested", "last"]);
    const nested = entries[0]!;
    expect(nested.line).toBe(5);
    expect(latexToText(nested.fields.title!)).toBe("A Nested Group Deep title");
    expect(nested.fields.journal).toBe("J. Mol. Biol.");
    expect(nested.fields.note).toBe('a {"} quote');
    expect(nested.fields.email).toBe("lab@example.org");
    expect(latexToText(entries[1]!.fields.title!)).toBe("Café ö ç");
    expect(problems).toEqual([
      {
        line: 11,
        message: expect.stringMatching(/^Expected .* but "t" found at line 12; the entry is skipped$/),
      },
    ]);
  });

  it("reports an entry without a citation key and reads the rest", () => {
    const { entries, problems } = parseBibtex("@misc{title = {No key}}\n@misc{k, title = {K}}");
    expect(entries.map((e) => e.key)).toEqual(["k"]);
    expect(problems).toEqual([{ line: 1, message: "the entry has no citation key; it is skipped" }]);
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
