import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createAlphafoldPlugin } from "../src/index.js";

// AlphaFold DB, UniProt and ESMFold need no key, so the live test is opted into with a variable.
const LIVE = process.env.ALPHAFOLD_LIVE === "1";
if (!LIVE) console.log("skipped: set ALPHAFOLD_LIVE=1 to run the live AlphaFold DB test");

describe.runIf(LIVE)("live AlphaFold DB", () => {
  it("returns the hemoglobin alpha model (P69905) with per-residue pLDDT", async () => {
    const catalog = createCatalog({ env: {} });
    catalog.register(createAlphafoldPlugin());
    const r = await catalog.call("alphafold_predict_structure", { uniprot_accession: "P69905" });
    expect(r.status).toBe("success");
    expect(
      (r.data as { confidence_scores: { per_residue: number[] } }).confidence_scores.per_residue.length,
    ).toBe(142);
    await catalog.close();
  }, 120_000);
});
