import { createHash } from "node:crypto";
import { createHttpClient, type ToolProgress } from "@quiver/core";
import { closedUrl, describePluginConformance, describePluginPackage } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };
import alphafoldPlugin from "../src/index.js";
import { esmfoldPdb, q7z6m3, recordedEntry } from "./support/afdb-emulator.js";
import { at, dataOf, session, useAfdbEmulator } from "./support/catalog.js";

/** `afCatalog`: a catalog with the plugin pointed at the emulator (`at(up)`), closed after the test. */
const { up, catalog: afCatalog } = useAfdbEmulator();

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(alphafoldPlugin, {
  options: () => at(up),
  downOptions: async () => {
    const dead = await closedUrl();
    return { alphafoldUrl: dead, esmfoldUrl: dead, uniprotUrl: dead };
  },
  needsArguments: { alphafold_predict_structure: "one of sequence or uniprot_accession" },
});

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("plugin shape", () => {
  it("is a v1 plugin with alphafold_predict_structure and a version", () => {
    expect(alphafoldPlugin.id).toBe("alphafold");
    expect(alphafoldPlugin.version).toBe(pkg.version);
    expect(alphafoldPlugin.tools.map((t) => t.name)).toEqual(["alphafold_predict_structure"]);
    expect(alphafoldPlugin.tools[0]!.category).toBe("specialized_model");
  });
});

describe("alphafold_predict_structure by UniProt accession (AlphaFold DB)", () => {
  it("returns per-residue pLDDT from the recorded PDB's B-factor column, bands per region and low-confidence warnings", async () => {
    const model = q7z6m3();
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status, r.message).toBe("success");
    const d = dataOf(r);
    expect(d).toMatchObject({
      source: "alphafold_db",
      uniprot_accession: "Q7Z6M3",
      model_id: "AF-Q7Z6M3-F1",
    });
    expect(d.sequence_length).toBe(343);
    expect(d.confidence_scores.per_residue).toEqual(model.plddt);
    expect(d.confidence_scores.overall).toBeCloseTo(74.53, 2); // SOURCE.md: mean over CA atoms 74.53
    expect(Math.min(...d.confidence_scores.per_residue)).toBe(31.97);
    expect(Math.max(...d.confidence_scores.per_residue)).toBe(98.81);
    // Regions tile the chain, each in one band.
    expect(d.regions[0].start).toBe(1);
    expect(d.regions.at(-1).end).toBe(343);
    for (let i = 1; i < d.regions.length; i++) expect(d.regions[i].start).toBe(d.regions[i - 1].end + 1);
    // Runs below 70 computed independently from the recorded file: 1-32, 187-190, 216-229, 249-343.
    expect(d.warnings.filter((w: string) => w.startsWith("Low confidence"))).toEqual([
      `Low confidence for residues 1-32 (mean pLDDT ${mean(model.plddt.slice(0, 32)).toFixed(1).replace(/\.0$/, "")})`,
      `Low confidence for residues 187-190 (mean pLDDT ${mean(model.plddt.slice(186, 190)).toFixed(1).replace(/\.0$/, "")})`,
      `Low confidence for residues 216-229 (mean pLDDT ${mean(model.plddt.slice(215, 229)).toFixed(1).replace(/\.0$/, "")})`,
      `Low confidence for residues 249-343 (mean pLDDT ${mean(model.plddt.slice(248, 343)).toFixed(1).replace(/\.0$/, "")})`,
    ]);
    expect(r.metadata.source).toBe("AlphaFold DB");
    expect(r.instruction).toMatch(/Jumper et al/);
  });

  it("links the structure when it is larger than the inline limit, and inlines it when the limit allows", async () => {
    const model = q7z6m3();
    const linked = dataOf(
      await afCatalog(at(up)).call("alphafold_predict_structure", { uniprot_accession: "Q7Z6M3" }, session),
    );
    expect(linked.structure).toEqual({
      format: "pdb",
      url: `${up.url}/files/AF-Q7Z6M3-F1-model_v1.pdb`,
    });
    expect(linked.structure.text).toBeUndefined();
    // The whole file is still in the answer: over the output budget, a link to it, read back whole.
    const first = afCatalog(at(up));
    const r = await first.call("alphafold_predict_structure", { uniprot_accession: "Q7Z6M3" }, session);
    const [link] = r.metadata.content ?? [];
    if (link?.type !== "resource_link") throw new Error(`no link: ${JSON.stringify(r.metadata)}`);
    expect(link).toMatchObject({ name: "AF-Q7Z6M3-F1-model_v1.pdb", size: Buffer.byteLength(model.pdb) });
    const read = await first.readResource(link.uri, session);
    expect(read.ok && read.value[0]).toMatchObject({ mimeType: "chemical/x-pdb", text: model.pdb });
    const catalog = afCatalog(
      { ...at(up), inlineStructureMaxChars: 300_000 },
      { policies: { "*": { maxOutputChars: 400_000 } } },
    );
    const inline = dataOf(
      await catalog.call("alphafold_predict_structure", { uniprot_accession: "Q7Z6M3" }, session),
    );
    expect(inline.structure).toMatchObject({ text: model.pdb });
  });

  it("reads the same per-residue pLDDT from the recorded mmCIF (_atom_site.B_iso_or_equiv)", async () => {
    const model = q7z6m3();
    const d = dataOf(
      await afCatalog(at(up)).call(
        "alphafold_predict_structure",
        { uniprot_accession: "Q7Z6M3", structure_format: "mmcif" },
        session,
      ),
    );
    expect(d.structure.url).toBe(`${up.url}/files/AF-Q7Z6M3-F1-model_v1.cif`);
    expect(d.confidence_scores.per_residue).toEqual(model.plddt);
  });

  it("falls back to the confidence JSON when the structure file cannot be downloaded", async () => {
    const model = q7z6m3();
    up.fault("GET", "/files/AF-Q7Z6M3-F1-model_v1.pdb", { kind: "status", status: 404 });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "af-q7z6m3-f1" },
      session,
    );
    expect(r.status).toBe("success");
    const d = dataOf(r);
    expect(d.confidence_scores.per_residue).toEqual(model.plddt);
    expect(d.structure).toEqual({ format: "pdb", url: `${up.url}/files/AF-Q7Z6M3-F1-model_v1.pdb` });
    expect(d.warnings.join(" ")).toMatch(/structure file could not be downloaded/);
  });

  it("returns the recorded entry's figures as a partial result when no per-residue data can be fetched", async () => {
    // The TP53 model files are not recorded: the emulator answers 404 for them, as for any unknown path.
    const tp53 = recordedEntry("P04637");
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "P04637" },
      session,
    );
    expect(r.status).toBe("partial");
    const d = dataOf(r);
    expect(d).toMatchObject({ model_id: "AF-P04637-F1", sequence_length: 393 });
    expect(d.confidence_scores.overall).toBe(tp53.globalMetricValue);
    expect(d.warnings).toContain(
      "Per-residue confidence was not obtained: overall is AlphaFold DB's global pLDDT (residues: 52.7 % very high, 7.1 % confident, 10.4 % low, 29.8 % very low).",
    );
    expect(d.protein).toBe("Cellular tumor antigen p53 (TP53, Homo sapiens)");
    expect(r.message).toMatch(/global pLDDT 75.06/);
  });

  it("picks the entry of the accession asked for among the recorded isoforms", async () => {
    const d = dataOf(
      await afCatalog(at(up)).call("alphafold_predict_structure", { uniprot_accession: "P00533" }, session),
    );
    expect(d.model_id).toBe("AF-P00533-F1");
    expect(d.sequence_length).toBe(1210);
    expect(d.confidence_scores.overall).toBe(75.94);
  });

  it("answers an accession without an AlphaFold DB model with out_of_domain, and a malformed one with invalid_input", async () => {
    const catalog = afCatalog(at(up));
    up.route("GET", "/api/prediction/P12345", { status: 404, json: {} });
    const missing = await catalog.call(
      "alphafold_predict_structure",
      { uniprot_accession: "P12345" },
      session,
    );
    expect(missing.error?.kind).toBe("out_of_domain");
    expect(missing.suggestion).toMatch(/ESMFold/);
    const malformed = await catalog.call(
      "alphafold_predict_structure",
      { uniprot_accession: "not an id" },
      session,
    );
    expect(malformed.error?.kind).toBe("invalid_input");
  });
});

describe("alphafold_predict_structure by sequence", () => {
  it("uses the AlphaFold DB model of an exact UniProt match", async () => {
    const model = q7z6m3();
    const fasta = `>sp|Q7Z6M3|MILR1_HUMAN Allergin-1\n${model.sequence.match(/.{1,60}/g)!.join("\n")}\n`;
    const folds = up.requestsTo("POST", "/foldSequence/v1/pdb/").length;
    const r = await afCatalog(at(up)).call("alphafold_predict_structure", { sequence: fasta }, session);
    const d = dataOf(r);
    expect(r.status).toBe("success");
    expect(d).toMatchObject({ source: "alphafold_db", uniprot_accession: "Q7Z6M3" });
    expect(up.requestsTo("POST", "/foldSequence/v1/pdb/")).toHaveLength(folds);
  });

  // Issue 25 item 11: UniParc entries no longer carry their cross-references; a separate endpoint lists them.
  it("finds the UniParc entry by the sequence's MD5 checksum, then its UniProtKB cross-references from /uniparc/{upi}/databases", async () => {
    const model = q7z6m3();
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { sequence: model.sequence },
      session,
    );
    expect(r.status, r.message).toBe("success");
    expect(dataOf(r)).toMatchObject({ source: "alphafold_db", uniprot_accession: "Q7Z6M3" });
    const md5 = createHash("md5").update(model.sequence).digest("hex").toUpperCase();
    const search = up.requestsTo("GET", "/uniparc/search").at(-1)!;
    expect(search.query.get("query")).toBe(`checksum:${md5}`);
    expect(search.query.get("format")).toBe("json");
    const databases = up.requestsTo("GET", "/uniparc/UPI00000A0001/databases").at(-1)!;
    expect(databases.query.get("dbTypes")).toBe("UniProtKB/Swiss-Prot,UniProtKB/TrEMBL");
    expect(databases.query.get("active")).toBe("true");
    expect(up.requestsTo("GET", "/uniparc/sequence")).toHaveLength(0);
  });

  it("a UniParc search answer without a result list is a failed lookup, said in a warning, not 'no exact match'", async () => {
    const override = up.route("GET", "/uniparc/search", { json: { uniParcId: "UPI00000A0001" } });
    try {
      const r = await afCatalog(at(up)).call(
        "alphafold_predict_structure",
        { sequence: q7z6m3().sequence.slice(0, 300) },
        session,
      );
      expect(dataOf(r).source).toBe("esmfold");
      expect(dataOf(r).warnings[0]).toMatch(/UniParc search answered HTTP 200 without a result list/);
    } finally {
      override.remove();
    }
  });

  it("folds a sequence without an exact match with ESMFold, moving its 0–1 pLDDT to 0–100", async () => {
    const seq = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ";
    const before = up.requestsTo("POST", "/foldSequence/v1/pdb/").length;
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { sequence: seq.toLowerCase() },
      session,
    );
    expect(r.status, r.message).toBe("success");
    const d = dataOf(r);
    expect(d).toMatchObject({ source: "esmfold", sequence_length: seq.length });
    const sent = up.requestsTo("POST", "/foldSequence/v1/pdb/");
    expect(sent.length).toBe(before + 1);
    expect(sent.at(-1)!.body).toBe(seq);
    const profile = q7z6m3().plddt.slice(0, seq.length);
    // The emulator writes pLDDT/100 with two decimals, as ESMFold does; the plugin moves it back to 0–100.
    expect(d.confidence_scores.per_residue).toEqual(
      profile.map((v) => Math.round(Number((v / 100).toFixed(2)) * 10_000) / 100),
    );
    expect(d.structure).toMatchObject({ format: "pdb", text: expect.stringContaining("ATOM") });
    expect(d.structure.text).toContain("ATOM");
    expect(d.warnings.some((w: string) => w.startsWith("Low confidence for residues 1-32"))).toBe(true);
    expect(r.instruction).toMatch(/ESMFold as Lin et al/);
  });

  it("links the whole ESMFold model when it is over the budget, byte-identical to what ESMFold sent", async () => {
    const seq = "ACDEFGHIKLMNPQRSTVWY".repeat(15); // 300 residues, no exact match
    // The model (about 49,000 characters) is over a 20,000-character budget.
    const catalog = afCatalog(
      { ...at(up), inlineStructureMaxChars: 30_000 },
      { policies: { alphafold_predict_structure: { maxOutputChars: 20_000 } } },
    );
    const r = await catalog.call("alphafold_predict_structure", { sequence: seq }, session);
    const d = dataOf(r);
    expect(d.structure).toEqual({ format: "pdb" });
    const [link] = r.metadata.content ?? [];
    if (link?.type !== "resource_link") throw new Error(`no link: ${JSON.stringify(r.metadata)}`);
    expect(link).toMatchObject({
      name: expect.stringMatching(/^ESM-[0-9a-f]{12}\.pdb$/),
      mimeType: "chemical/x-pdb",
    });
    const [sent] = up.requestsTo("POST", "/foldSequence/v1/pdb/").slice(-1);
    const pdb = esmfoldPdb(String(sent?.body), q7z6m3().plddt);
    expect(link.size).toBe(Buffer.byteLength(pdb));
    const read = await catalog.readResource(link.uri, session);
    expect(read.ok && read.value[0]).toEqual({ uri: link.uri, mimeType: "chemical/x-pdb", text: pdb });
    expect((await catalog.readResource(link.uri, { session: { principal: "bob" } })).ok).toBe(false);
  });

  it("still folds with ESMFold when the UniProt lookup fails, and says so", async () => {
    up.fault("GET", "/uniparc/search", { kind: "status", status: 503 });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { sequence: "MSTNPKPQRKTKRNTNRRPQDVKFPGG" },
      session,
    );
    expect(r.status).toBe("success");
    expect(dataOf(r).source).toBe("esmfold");
    expect(dataOf(r).warnings[0]).toMatch(/exact-match lookup .* failed/);
  });

  it("asks for exactly one of sequence and uniprot_accession", async () => {
    const catalog = afCatalog(at(up));
    const both = await catalog.call(
      "alphafold_predict_structure",
      { sequence: "MKT", uniprot_accession: "P04637" },
      session,
    );
    expect(both.error?.kind).toBe("invalid_input");
    expect(both.message).toMatch(/not both/);
    const neither = await catalog.call("alphafold_predict_structure", {}, session);
    expect(neither.error?.kind).toBe("invalid_input");
  });
});

describe("out-of-domain input is refused before any upstream call, saying what is wrong", () => {
  const refused = async (sequence: string) => {
    const before = up.requests.length;
    const r = await afCatalog(at(up)).call("alphafold_predict_structure", { sequence }, session);
    expect(up.requests.length, "no upstream request").toBe(before);
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("out_of_domain");
    expect(r.error?.retryable).toBe(false);
    expect(r.suggestion).toBeTruthy();
    return r;
  };

  it("invalid residue letters: names each letter and its position", async () => {
    const r = await refused("MKTAYB1KQRJ");
    expect(r.message).toContain("'B' at position 6");
    expect(r.message).toContain("'1' at position 7");
    expect(r.message).toContain("'J' at position 11");
    expect(r.message).toMatch(/3 characters that are not amino acids/);
  });

  it("an empty sequence (or only a FASTA header and whitespace)", async () => {
    expect((await refused("   ")).message).toMatch(/empty/);
    expect((await refused(">sp|P04637|P53_HUMAN\n\n")).message).toMatch(/empty/);
  });

  it("an over-long sequence", async () => {
    expect((await refused("M".repeat(2_701))).message).toMatch(/2701 residues/);
  });

  it("a DNA sequence given as protein", async () => {
    const r = await refused("ATGGCGTACGTTAGCCGATCGATCGGCTAGCTAGGCTAACGT");
    expect(r.message).toMatch(/looks like a DNA sequence, not a protein/);
    expect(r.suggestion).toMatch(/Translate/);
  });

  it("an RNA sequence given as protein", async () => {
    expect((await refused("AUGGCGUACGUUAGCCGAUCGAUCGGCUAG")).message).toMatch(/looks like a RNA sequence/);
  });

  it("a sequence over ESMFold's 400 residues that matches nothing exactly", async () => {
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { sequence: "ACDEFGHIKLMNPQRSTVWY".repeat(21) },
      session,
    );
    expect(r.error?.kind).toBe("out_of_domain");
    expect(r.message).toMatch(/420 residues .* ESMFold folds at most 400/);
    const md5 = createHash("md5").update("ACDEFGHIKLMNPQRSTVWY".repeat(21)).digest("hex").toUpperCase();
    expect(up.requestsTo("GET", "/uniparc/search").at(-1)!.query.get("query")).toBe(`checksum:${md5}`);
  });
});

describe("long predictions: progress, and partial results on timeout", () => {
  it("waits for ESMFold's headers past the catalog client's own headers timeout (esmfoldTimeoutMs)", async () => {
    // The catalog's client gives up on headers after 300 ms; ESMFold answers after 900 ms.
    const http = createHttpClient({ headersTimeoutMs: 300, bodyTimeoutMs: 300 });
    try {
      up.fault("POST", "/foldSequence/v1/pdb/", { kind: "delay", ms: 900 });
      const folded = await afCatalog({ ...at(up), esmfoldTimeoutMs: 5_000 }, { http }).call(
        "alphafold_predict_structure",
        { sequence: "MKTAYIAKQRQISFVKSHFSRQ" },
        session,
      );
      expect(folded.status, folded.message).toBe("success");
      expect(dataOf(folded)).toMatchObject({ source: "esmfold" });
      // The AlphaFold DB lookup keeps the client's short wait: only the fold gets the long one.
      up.fault("GET", "/api/prediction/Q7Z6M3", { kind: "delay", ms: 900 });
      const lookup = await afCatalog(at(up), { http, policies: { "*": { retry: false } } }).call(
        "alphafold_predict_structure",
        { uniprot_accession: "Q7Z6M3" },
        session,
      );
      expect(lookup.status).toBe("timeout");
    } finally {
      up.clearFaults();
      await http.close();
    }
  });

  it("reports progress through the stages of an AlphaFold DB lookup", async () => {
    const events: ToolProgress[] = [];
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      { ...session, onProgress: (p) => events.push(p) },
    );
    expect(r.status).toBe("success");
    expect(events.map((e) => e.progress)).toEqual([1, 2, 4]);
    expect(events.every((e) => e.total === 4)).toBe(true);
    expect(events[1]!.message).toMatch(/downloading the PDB file/);
  });

  it("reports rising progress while ESMFold folds", async () => {
    up.fault("POST", "/foldSequence/v1/pdb/", { kind: "delay", ms: 400 }, { times: 1 });
    const events: ToolProgress[] = [];
    const r = await afCatalog({ ...at(up), progressIntervalMs: 50 }).call(
      "alphafold_predict_structure",
      { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ" },
      { ...session, onProgress: (p) => events.push(p) },
    );
    expect(r.status).toBe("success");
    const folding = events.filter((e) => e.message?.startsWith("ESMFold is folding"));
    expect(folding.length).toBeGreaterThanOrEqual(3);
    const values = events.map((e) => e.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
  });

  it("returns what it has (the entry's figures) when the structure download hangs past the timeout", async () => {
    up.route("GET", "/files/AF-P04637-F1-model_v6.pdb", { text: "never served" });
    up.fault("GET", "/files/AF-P04637-F1-model_v6.pdb", { kind: "hang" });
    const catalog = afCatalog(at(up), { policies: { "*": { timeout: "800ms" } } });
    const r = await catalog.call("alphafold_predict_structure", { uniprot_accession: "P04637" }, session);
    expect(r.status).toBe("partial");
    expect(r.metadata.incomplete).toBe(true);
    expect(r.error?.kind).toBe("timeout");
    expect(r.message).toMatch(/returning what was found so far/);
    const d = dataOf(r);
    expect(d).toMatchObject({ model_id: "AF-P04637-F1", sequence_length: 393 });
    expect(d.confidence_scores).toEqual({ overall: 75.06, per_residue: [] });
    expect(d.structure.url).toBe(`${up.url}/files/AF-P04637-F1-model_v6.pdb`);
  });

  it("returns the partial entry when the structure download is delayed past the timeout", async () => {
    up.fault("GET", "/files/AF-Q7Z6M3-F1-model_v1.pdb", { kind: "delay", ms: 3_000 });
    const r = await afCatalog(at(up), { policies: { "*": { timeout: "700ms" } } }).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status).toBe("partial");
    expect(dataOf(r)).toMatchObject({ uniprot_accession: "Q7Z6M3", confidence_scores: { overall: 74.57 } });
  });

  it("returns the validated sequence facts when ESMFold hangs past the timeout", async () => {
    up.fault("POST", "/foldSequence/v1/pdb/", { kind: "hang" });
    const r = await afCatalog(at(up), { policies: { "*": { timeout: "700ms" } } }).call(
      "alphafold_predict_structure",
      { sequence: "MKTAYIAKQRQISFVKSHFSRQ" },
      session,
    );
    expect(r.status).toBe("partial");
    expect(dataOf(r)).toMatchObject({ source: "esmfold", sequence_length: 22 });
    expect(dataOf(r).warnings).toContain("ESMFold had not returned a structure yet.");
  });
});
