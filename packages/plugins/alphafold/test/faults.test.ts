import { type Emulator, FAULT_KINDS, type Fault, type FaultKind } from "@quiver/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { q7z6m3, startAfdbEmulator } from "./support/afdb-emulator.js";
import { afCatalog, at, dataOf, session } from "./support/catalog.js";

let up: Emulator;
let sequence = "";
beforeAll(async () => {
  ({ up } = await startAfdbEmulator());
  sequence = q7z6m3().sequence;
});
afterEach(() => up.clearFaults());
afterAll(async () => {
  await up.close();
});

const FAULTS: Record<FaultKind, Fault> = {
  delay: { kind: "delay", ms: 150 },
  hang: { kind: "hang" },
  slowBody: { kind: "slowBody", chunkBytes: 16_384, intervalMs: 1 },
  reset: { kind: "reset" },
  status: { kind: "status", status: 503 },
  invalidJson: { kind: "invalidJson" },
  htmlError: { kind: "htmlError", status: 200 },
  oversized: { kind: "oversized", bytes: 6 * 1024 * 1024 },
  wrongContentType: { kind: "wrongContentType", contentType: "application/octet-stream" },
};

type Expect = { status: string; kind?: string; check?: (d: Record<string, any>) => void };
const ok: Expect = { status: "success" };
const timeoutWith = (check?: Expect["check"]): Expect => ({
  status: "timeout",
  kind: "timeout",
  ...(check ? { check } : {}),
});

/** Each HTTP path of the plugin, and what each fault on it must end in. */
const PATHS: ReadonlyArray<{
  name: string;
  method: string;
  path: string;
  input: () => Record<string, unknown>;
  expect: Record<FaultKind, Expect>;
}> = [
  {
    name: "AlphaFold DB prediction metadata",
    method: "GET",
    path: "/api/prediction/Q7Z6M3",
    input: () => ({ uniprot_accession: "Q7Z6M3" }),
    expect: {
      delay: ok,
      hang: timeoutWith(),
      slowBody: ok,
      reset: { status: "unavailable", kind: "unavailable" },
      status: { status: "error", kind: "upstream" },
      invalidJson: { status: "error", kind: "upstream" },
      htmlError: { status: "error", kind: "upstream" },
      oversized: { status: "error", kind: "upstream" },
      wrongContentType: ok,
    },
  },
  {
    name: "structure file download (falls back to the confidence JSON)",
    method: "GET",
    path: "/files/AF-Q7Z6M3-F1-model_v1.pdb",
    input: () => ({ uniprot_accession: "Q7Z6M3" }),
    expect: Object.fromEntries(
      FAULT_KINDS.map((k) => [
        k,
        k === "hang"
          ? timeoutWith((d) => expect(d).toMatchObject({ complete: false, model_id: "AF-Q7Z6M3-F1" }))
          : ["delay", "slowBody", "wrongContentType"].includes(k)
            ? ok
            : {
                status: "success",
                check: (d) => {
                  expect(d.confidence_scores.per_residue).toHaveLength(343);
                  expect(d.warnings.join(" ")).toMatch(
                    /structure file could not be downloaded|held no residues/,
                  );
                },
              },
      ]),
    ) as Record<FaultKind, Expect>,
  },
  {
    name: "UniParc exact-match lookup (falls back to ESMFold)",
    method: "GET",
    path: "/uniparc/sequence",
    input: () => ({ sequence }),
    expect: Object.fromEntries(
      FAULT_KINDS.map((k) => [
        k,
        k === "hang"
          ? timeoutWith()
          : ["delay", "slowBody", "wrongContentType"].includes(k)
            ? { status: "success", check: (d) => expect(d.source).toBe("alphafold_db") }
            : {
                status: "success",
                check: (d) => {
                  expect(d.source).toBe("esmfold");
                  expect(d.warnings[0]).toMatch(/exact-match lookup/);
                },
              },
      ]),
    ) as Record<FaultKind, Expect>,
  },
  {
    name: "ESMFold fold",
    method: "POST",
    path: "/foldSequence/v1/pdb/",
    input: () => ({ sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAP" }),
    expect: {
      delay: ok,
      hang: timeoutWith((d) =>
        expect(d).toMatchObject({ complete: false, source: "esmfold", sequence_length: 35 }),
      ),
      slowBody: ok,
      reset: { status: "unavailable", kind: "unavailable" },
      status: { status: "error", kind: "upstream" },
      invalidJson: { status: "error", kind: "upstream" },
      htmlError: { status: "error", kind: "upstream" },
      oversized: { status: "error", kind: "upstream" },
      wrongContentType: ok,
    },
  },
];

describe("every fault kind on every AlphaFold / UniProt / ESMFold request path", () => {
  for (const p of PATHS) {
    describe(p.name, () => {
      it.each(FAULT_KINDS)("%s", async (kind) => {
        const want = p.expect[kind];
        const fault = up.fault(p.method, p.path, FAULTS[kind]);
        const catalog = afCatalog(at(up), {
          policies: { "*": { timeout: "1500ms", retry: { times: 1, base: "10ms" } } },
        });
        const r = await catalog.call("alphafold_predict_structure", p.input(), session);
        expect(fault.hits, "the fault fired").toBeGreaterThan(0);
        expect(r.status, r.message).toBe(want.status);
        if (want.kind) expect(r.error?.kind).toBe(want.kind);
        if (want.status !== "success" && want.status !== "timeout")
          expect(r.guidance ?? r.suggestion).toBeTruthy();
        want.check?.(dataOf(r));
      });
    });
  }

  it("returns a partial result when both the structure file and the confidence JSON fail", async () => {
    up.fault("GET", "/files/AF-Q7Z6M3-F1-model_v1.pdb", { kind: "status", status: 503 });
    up.fault("GET", "/files/AF-Q7Z6M3-F1-confidence_v1.json", { kind: "invalidJson" });
    const r = await afCatalog(at(up)).call(
      "alphafold_predict_structure",
      { uniprot_accession: "Q7Z6M3" },
      session,
    );
    expect(r.status).toBe("partial");
    expect(dataOf(r).complete).toBe(false);
    expect(dataOf(r).warnings.join(" ")).toMatch(/confidence file could not be downloaded/);
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
