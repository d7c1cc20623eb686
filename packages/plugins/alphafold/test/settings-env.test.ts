import { pluginSettings } from "@quiver/core";
import { describe, expect, it } from "vitest";
import alphafoldPlugin from "../src/index.js";
import { afCatalog, dataOf, session, useAfdbEmulator } from "./support/catalog.js";

const { up } = useAfdbEmulator();

/** A sequence with no UniParc entry in the emulator: UniProt is asked, then ESMFold folds it. */
const NEW_SEQUENCE = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ";

describe("upstream base URLs from environment variables (how a one-plugin server is pointed elsewhere)", () => {
  it("declares ALPHAFOLD_BASE_URL, UNIPROT_BASE_URL and ESMFOLD_BASE_URL, none required or secret", () => {
    const urls = pluginSettings(alphafoldPlugin).filter((s) => s.env !== undefined);
    expect(urls.map((s) => [s.field, s.env, s.required, s.secret])).toEqual([
      ["alphafoldUrl", "ALPHAFOLD_BASE_URL", false, false],
      ["esmfoldUrl", "ESMFOLD_BASE_URL", false, false],
      ["uniprotUrl", "UNIPROT_BASE_URL", false, false],
    ]);
  });

  it("sends every request to the URLs the environment gives", async () => {
    const env = { ALPHAFOLD_BASE_URL: up.url, UNIPROT_BASE_URL: up.url, ESMFOLD_BASE_URL: up.url };
    const catalog = afCatalog({}, { env });
    const byAccession = await catalog.call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(byAccession.status, byAccession.message).toBe("success");
    expect(dataOf(byAccession)).toMatchObject({ source: "alphafold_db", model_id: "AF-Q7Z6M3-F1" });
    expect(up.requestsTo("GET", "/api/prediction/Q7Z6M3")).toHaveLength(1);

    const bySequence = await catalog.call("alphafold_predict_structure", { sequence: NEW_SEQUENCE }, session);
    expect(bySequence.status, bySequence.message).toBe("success");
    expect(dataOf(bySequence)).toMatchObject({ source: "esmfold", sequence_length: NEW_SEQUENCE.length });
    expect(up.requestsTo("GET", "/uniparc/search")).toHaveLength(1);
    expect(up.requestsTo("POST", "/foldSequence/v1/pdb/")).toHaveLength(1);
  });
});
