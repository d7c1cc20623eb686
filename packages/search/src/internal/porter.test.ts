import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { porterStem } from "./porter.js";

// Examples from Porter's paper (1980), as stemmed by his reference implementation.
const EXAMPLES: Record<string, string> = {
  caresses: "caress",
  ponies: "poni",
  ties: "ti",
  caress: "caress",
  cats: "cat",
  feed: "feed",
  agreed: "agre",
  plastered: "plaster",
  motoring: "motor",
  sing: "sing",
  conflated: "conflat",
  troubled: "troubl",
  sized: "size",
  hopping: "hop",
  tanned: "tan",
  falling: "fall",
  hissing: "hiss",
  fizzed: "fizz",
  failing: "fail",
  filing: "file",
  happy: "happi",
  sky: "sky",
  relational: "relat",
  conditional: "condit",
  rational: "ration",
  digitizer: "digit",
  vietnamization: "vietnam",
  predication: "predic",
  operator: "oper",
  feudalism: "feudal",
  decisiveness: "decis",
  hopefulness: "hope",
  callousness: "callous",
  formality: "formal",
  sensitivity: "sensit",
  triplicate: "triplic",
  formative: "form",
  formalize: "formal",
  electrical: "electr",
  hopeful: "hope",
  goodness: "good",
  revival: "reviv",
  allowance: "allow",
  inference: "infer",
  airliner: "airlin",
  gyroscopic: "gyroscop",
  adjustable: "adjust",
  defensible: "defens",
  irritant: "irrit",
  replacement: "replac",
  adjustment: "adjust",
  dependent: "depend",
  adoption: "adopt",
  communism: "commun",
  activate: "activ",
  homologous: "homolog",
  effective: "effect",
  bowdlerize: "bowdler",
  probate: "probat",
  rate: "rate",
  cease: "ceas",
  controlling: "control",
  roll: "roll",
  generalizations: "gener",
  oscillators: "oscil",
};

describe("porterStem", () => {
  it("stems Porter's examples as the reference implementation does", () => {
    for (const [word, stem] of Object.entries(EXAMPLES))
      expect([word, porterStem(word)]).toEqual([word, stem]);
  });

  it("leaves short words, digits and other scripts alone", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("p53")).toBe("p53");
    expect(porterStem("2020")).toBe("2020");
    expect(porterStem("ἀλήθεια")).toBe("ἀλήθεια");
  });

  it("agrees with SQLite FTS5's porter tokenizer", () => {
    const words = [
      ...Object.keys(EXAMPLES),
      ...(
        "mitochondria mitochondrial apoptosis apoptotic inhibitors inhibition regulates regulatory phosphorylation " +
        "metastases metastatic patients randomized trials cohorts associations increasingly sensitivities " +
        "hypothesized transcriptional differentiation proliferating oncogenic immunotherapy vaccination y yy"
      ).split(" "),
    ];
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE VIRTUAL TABLE t USING fts5 (w, tokenize = 'porter ascii')");
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')");
    const insert = db.prepare("INSERT INTO t (rowid, w) VALUES (?, ?)");
    words.forEach((word, i) => {
      insert.run(i + 1, word);
    });
    const rows = db.prepare("SELECT doc, term FROM v").all() as { doc: number; term: string }[];
    expect(rows).toHaveLength(words.length);
    for (const { doc, term } of rows) {
      const word = words[doc - 1]!;
      expect([word, porterStem(word)]).toEqual([word, term]);
    }
    db.close();
  });
});
