import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createAlphafoldPlugin } from "../src/index.js";
import { recordedEntry } from "./support/afdb-emulator.js";

// AlphaFold DB, UniProt and ESMFold need no key, so the live test is opted into with a variable.
// One test per upstream endpoint, named after it (`pnpm test:live` prints them as a table).
const LIVE = process.env.ALPHAFOLD_LIVE === "1";
if (!LIVE)
  console.log("skipped: set ALPHAFOLD_LIVE=1 to run the live AlphaFold DB, UniProt and ESMFold tests");

type Prediction = {
  source: string;
  uniprot_accession?: string;
  confidence_scores: { per_residue: number[] };
  warnings: string[];
};

const predict = async (input: Record<string, unknown>) => {
  const catalog = createCatalog({ env: {} });
  catalog.register(createAlphafoldPlugin());
  try {
    return await catalog.call("alphafold_predict_structure", input);
  } finally {
    await catalog.close();
  }
};

describe.runIf(LIVE)("live AlphaFold DB, UniProt and ESMFold", () => {
  it("AlphaFold DB GET /api/prediction/{accession}: hemoglobin alpha (P69905) with per-residue pLDDT", async () => {
    const r = await predict({ uniprot_accession: "P69905" });
    expect(r.status, r.message).toBe("success");
    expect((r.data as Prediction).confidence_scores.per_residue.length).toBe(142);
  }, 120_000);

  it("UniProt GET /uniparc/search + /uniparc/{upi}/databases: TP53's sequence finds P04637's AlphaFold DB model", async () => {
    const r = await predict({ sequence: recordedEntry("P04637").sequence });
    expect(r.status, r.message).toBe("success");
    const d = r.data as Prediction;
    expect(d.warnings.join(" ")).not.toMatch(/exact-match lookup/);
    expect(d).toMatchObject({ source: "alphafold_db", uniprot_accession: "P04637" });
  }, 120_000);

  it("ESMFold POST /foldSequence/v1/pdb/: a short sequence without an exact match is folded", async () => {
    const r = await predict({ sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEK" });
    expect(r.status, r.message).toBe("success");
    expect((r.data as Prediction).source).toBe("esmfold");
  }, 180_000);
});
