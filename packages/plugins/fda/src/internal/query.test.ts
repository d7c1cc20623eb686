import { describe, expect, it } from "vitest";
import { applicationNumbersSearch, buildSearch, phraseText, quote } from "./query.js";

describe("openFDA query building", () => {
  it("drops only the characters that could end a phrase, keeps operators as text", () => {
    expect(phraseText('a"b\\c')).toBe("a b c");
    expect(phraseText("x AND (y OR z*) : +1")).toBe("x AND (y OR z*) : +1");
    expect(phraseText("  tab\tand\nnewline  ")).toBe("tab and newline");
    expect(quote("Ozempic", "brand_name")).toBe('"Ozempic"');
    expect(() => quote('"\\ ()', "brand_name")).toThrow(/no letters or digits/);
  });

  it("spells accented letters in ASCII and turns every other character openFDA refuses into a space", () => {
    expect(phraseText("Sjögren's syndrome")).toBe("Sjogren's syndrome");
    expect(phraseText("Ozempic®")).toBe("Ozempic");
    expect(phraseText("Mounjaro™ 5 mg")).toBe("Mounjaro 5 mg");
    expect(phraseText("Crohn’s disease?")).toBe("Crohn's disease");
    expect(phraseText("Straße #1; Ærø!")).toBe("Strasse 1 AEro");
    expect(phraseText("ＯＺＥＭＰＩＣ")).toBe("OZEMPIC");
    expect(() => quote("阿司匹林", "brand_name")).toThrow(/Latin letters/);
  });

  it("joins criteria with AND, ORs the fields of one criterion, and uses a date range for approval years", () => {
    const q = buildSearch(
      { brand_name: "Ozempic", sponsor: "Novo", approval_year: { after: 2017 } },
      "drugsfda",
    );
    expect(q.endpoint).toBe("drugsfda");
    expect(q.search).toMatch(
      /^\(products\.brand_name:"Ozempic" OR openfda\.brand_name:"Ozempic"\) AND \(sponsor_name:"NOVO" OR openfda\.manufacturer_name:"Novo"\) AND submissions\.submission_status_date:\[20170101 TO \d{4}1231\]$/,
    );
    expect(q.deferred).toEqual(["approval_year"]);
  });

  it("searches labels for an indication and defers sponsor and approval year to Drugs@FDA", () => {
    const q = buildSearch({ indication: "asthma", sponsor: "GSK", approval_year: { before: 2000 } });
    expect(q).toEqual({
      endpoint: "label",
      search: 'indications_and_usage:"asthma"',
      deferred: ["sponsor", "approval_year"],
      fields: { indication: ["indications_and_usage"] },
    });
  });

  it("quotes application numbers too", () => {
    expect(applicationNumbersSearch(["NDA1", 'X"Y'])).toBe('application_number:("NDA1" OR "X Y")');
  });
});
