import type { ToolResult } from "@quiver/core";
import {
  describeFaultMatrix,
  FAULT_KINDS,
  type FaultExpectation,
  type FaultKind,
  MATRIX_EXPECTATIONS,
} from "@quiver/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createAlphafoldPlugin } from "../src/index.js";
import { q7z6m3 } from "./support/afdb-emulator.js";
import { at, dataOf, session, useAfdbEmulator } from "./support/catalog.js";

/** `afCatalog`: a catalog with the plugin pointed at the emulator (`at(up)`), closed after the test. */
const { up, catalog: afCatalog } = useAfdbEmulator();
let sequence = "";
beforeAll(() => {
  sequence = q7z6m3().sequence;
});

/** The shared expectations, plus: every failure tells the model what to do. */
const EXPECT = Object.fromEntries(
  FAULT_KINDS.map((kind): [FaultKind, FaultExpectation] => {
    const want = MATRIX_EXPECTATIONS[kind];
    return [kind, want.status === "success" ? want : { ...want, guidance: true }];
  }),
) as Record<FaultKind, FaultExpectation>;

/** The fault kinds that fail a request outright (where the plugin has a fallback, it answers these). */
const FAILING = FAULT_KINDS.filter(
  (kind) => !["delay", "hang", "slowBody", "wrongContentType"].includes(kind),
);

/** The same expectation for every kind in `FAILING`. */
const onFailure = (want: FaultExpectation): Partial<Record<FaultKind, FaultExpectation>> =>
  Object.fromEntries(FAILING.map((kind) => [kind, want]));

/** A hang past the timeout with some results: a partial marked incomplete, with a check on its data. */
const hangWith = (partial: Record<string, unknown>): FaultExpectation => ({
  ...EXPECT.hang,
  status: "partial",
  check: (r) => expect(dataOf(r)).toMatchObject(partial),
});

describeFaultMatrix({
  name: "every fault kind on every AlphaFold / UniProt / ESMFold request path",
  emulator: () => up,
  plugin: createAlphafoldPlugin,
  settings: at,
  session,
  faults: {
    slowBody: { kind: "slowBody", chunkBytes: 16_384, intervalMs: 1 },
    status: { kind: "status", status: 503 },
    wrongContentType: { kind: "wrongContentType", contentType: "application/octet-stream" },
  },
  expect: EXPECT,
  calls: [
    {
      name: "AlphaFold DB prediction metadata",
      method: "GET",
      path: "/api/prediction/Q7Z6M3",
      tool: "alphafold_predict_structure",
      input: () => ({ uniprot_accession: "Q7Z6M3" }),
    },
    {
      name: "structure file download (falls back to the confidence JSON)",
      method: "GET",
      path: "/files/AF-Q7Z6M3-F1-model_v1.pdb",
      tool: "alphafold_predict_structure",
      input: () => ({ uniprot_accession: "Q7Z6M3" }),
      expect: {
        hang: hangWith({ model_id: "AF-Q7Z6M3-F1" }),
        ...onFailure({
          status: "success",
          check: (r) => {
            expect(dataOf(r).confidence_scores.per_residue).toHaveLength(343);
            expect(dataOf(r).warnings.join(" ")).toMatch(
              /structure file could not be downloaded|held no residues/,
            );
          },
        }),
      },
    },
    // The two UniParc requests of the exact-match lookup: when either fails, ESMFold folds instead.
    ...(
      [
        ["UniParc exact-match lookup (falls back to ESMFold)", "/uniparc/search"],
        ["UniParc cross-references (falls back to ESMFold)", "/uniparc/UPI00000A0001/databases"],
      ] as const
    ).map(([name, path]) => ({
      name,
      method: "GET",
      path,
      tool: "alphafold_predict_structure",
      input: () => ({ sequence }),
      expect: {
        ...Object.fromEntries(
          ["delay", "slowBody", "wrongContentType"].map((kind) => [
            kind,
            { status: "success", check: (r: ToolResult) => expect(dataOf(r).source).toBe("alphafold_db") },
          ]),
        ),
        ...onFailure({
          status: "success",
          check: (r) => {
            expect(dataOf(r).source).toBe("esmfold");
            expect(dataOf(r).warnings[0]).toMatch(/exact-match lookup/);
          },
        }),
      },
    })),
    {
      name: "ESMFold fold",
      method: "POST",
      path: "/foldSequence/v1/pdb/",
      tool: "alphafold_predict_structure",
      input: () => ({ sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAP" }),
      expect: {
        hang: hangWith({ source: "esmfold", sequence_length: 35 }),
        // ESMFold answers PDB text: a body that is not PDB (broken JSON, an HTML page) is an upstream
        // error the plugin marks retryable.
        ...Object.fromEntries(
          ["invalidJson", "htmlError"].map((kind) => [
            kind,
            { ...EXPECT.htmlError, retryable: true, message: /without a PDB structure/ },
          ]),
        ),
      },
    },
  ],
});

describe("AlphaFold failures beyond one request", () => {
  it("returns a partial result when both the structure file and the confidence JSON fail", async () => {
    up.fault("GET", "/files/AF-Q7Z6M3-F1-model_v1.pdb", { kind: "status", status: 503 });
    up.fault("GET", "/files/AF-Q7Z6M3-F1-confidence_v1.json", { kind: "invalidJson" });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status).toBe("partial");
    expect(dataOf(r).confidence_scores.per_residue).toEqual([]);
    expect(dataOf(r).warnings.join(" ")).toMatch(/confidence file could not be downloaded/);
  });

  it("a 503 twice on the metadata request, then a recovery: success on the policy's third attempt", async () => {
    const fault = up.fault("GET", "/api/prediction/Q7Z6M3", { kind: "status", status: 503 }, { times: 2 });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status, r.message).toBe("success");
    expect(r.metadata.attempts).toBe(3);
    expect(fault.hits).toBe(2);
  });

  it("a 503 that persists is unavailable and retryable, after the policy's three attempts", async () => {
    up.fault("GET", "/api/prediction/Q7Z6M3", { kind: "status", status: 503 });
    const r = await afCatalog(at(up), { policies: { "*": { fallback: { stale: false } } } }).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status, r.message).toBe("unavailable");
    expect(r.error).toMatchObject({ kind: "unavailable", retryable: true });
    expect(r.metadata.attempts).toBe(3);
    expect(r.suggestion).toBeTruthy();
  });

  it("decodes a gzip-encoded metadata answer", async () => {
    up.fault("GET", "/api/prediction/Q7Z6M3", { kind: "encoded", encoding: "gzip" });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status, r.message).toBe("success");
  });

  it("retries a one-off reset of the metadata request", async () => {
    up.fault("GET", "/api/prediction/Q7Z6M3", { kind: "reset" }, { times: 1 });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });
});
