import { readFileSync } from "node:fs";
import {
  type Emulator,
  loadCassette,
  parseCassette,
  routesFromCassette,
  startEmulator,
} from "@quiver/testing";
import { THREE_TO_ONE } from "../../src/internal/structure-parse.js";
import { routeUniParc } from "./uniparc-emulator.js";

/** A recorded file in test/fixtures (see its SOURCE.md). */
const fixture = (...parts: string[]) => new URL(`../fixtures/${parts.join("/")}`, import.meta.url);

const THREE = THREE_TO_ONE;
const ONE = Object.fromEntries(Object.entries(THREE).map(([k, v]) => [v, k]));

/** The recorded AF-Q7Z6M3-F1 model files and facts read from them (independently of the plugin's parser). */
export const q7z6m3 = () => {
  const pdb = readFileSync(fixture("structure", "Q7Z6M3.pdb"), "utf8");
  const cif = readFileSync(fixture("structure", "Q7Z6M3.cif"), "utf8");
  const ca = pdb.split("\n").filter((l) => l.startsWith("ATOM") && l.slice(12, 16).trim() === "CA");
  const plddt = ca.map((l) => Number(l.slice(60, 66)));
  const sequence = ca.map((l) => THREE[l.slice(17, 20)] ?? "X").join("");
  return { pdb, cif, plddt, sequence };
};

/** The recorded AlphaFold DB cassettes (TP53 and EGFR), AFDB interactions only. */
export const cassettes = () =>
  ["02-tp53-r175h", "03-egfr-l858r"].map((name) => loadCassette(fixture("api", name, "cassette.json")));

/** The recorded canonical AFDB entry of an accession (P04637 or P00533). */
export const recordedEntry = (accession: string): Record<string, any> => {
  for (const c of cassettes()) {
    for (const i of c.interactions) {
      if (i.url.endsWith(`/api/prediction/${accession}`)) {
        return (i.response_json as Array<Record<string, any>>).find((e) => e.uniprotAccession === accession)!;
      }
    }
  }
  throw new Error(`no recorded entry for ${accession}`);
};

/**
 * An ESMFold-shaped PDB for any sequence (not recorded: no ESMFold response is public). One N and one
 * CA atom per residue; pLDDT on ESMFold's 0–1 scale (apis.md 4.2), following the recorded Q7Z6M3
 * profile so there are confident and low-confidence stretches.
 */
export const esmfoldPdb = (sequence: string, profile: ReadonlyArray<number>): string => {
  const lines = ["HEADER    ESMFOLD-SHAPED TEST MODEL", "MODEL        1"];
  let serial = 1;
  [...sequence].forEach((aa, i) => {
    const b = ((profile[i % profile.length] ?? 80) / 100).toFixed(2).padStart(6);
    const res = (ONE[aa] ?? "UNK").padEnd(3);
    const num = String(i + 1).padStart(4);
    for (const [name, el] of [
      ["N", "N"],
      ["CA", "C"],
    ] as const) {
      const atom = ` ${name.padEnd(3)}`;
      lines.push(
        `ATOM  ${String(serial++).padStart(5)} ${atom} ${res} A${num}    ${(i * 3.8).toFixed(3).padStart(8)}${"0.000".padStart(8)}${"0.000".padStart(8)}  1.00${b}           ${el}`,
      );
    }
  });
  lines.push("TER", "ENDMDL", "END");
  return `${lines.join("\n")}\n`;
};

/** Replaces every AlphaFold DB URL in a recorded body with the emulator's, so file links are served locally. */
const rehost = <T>(value: T, url: string): T =>
  JSON.parse(JSON.stringify(value).replaceAll("https://alphafold.ebi.ac.uk", url));

/**
 * Starts the structure emulator: the recorded AFDB prediction responses (P04637, P00533) from the
 * cassettes with their file URLs pointing here; the recorded AF-Q7Z6M3-F1 PDB and mmCIF files behind an
 * AFDB entry built from the recorded P04637 entry's shape; a confidence JSON derived from the recorded
 * PDB; UniParc's documented checksum search and cross-reference list (./uniparc-emulator.ts); and an
 * ESMFold that folds anything.
 * `linksTo` keeps the file links on another origin (`https://alphafold.ebi.ac.uk` when recording
 * cassettes through `emulatorDispatcher`).
 */
export const startAfdbEmulator = async (options: { readonly linksTo?: string } = {}) => {
  const up = await startEmulator();
  /** Where the file links of the served entries point: here, or (recording cassettes) AFDB itself. */
  const links = options.linksTo ?? up.url;
  const model = q7z6m3();
  for (const c of cassettes()) {
    routesFromCassette(up, parseCassette(rehost(c, links)), {
      filter: (i) => i.source === "AlphaFold DB",
    });
  }
  const tp53 = recordedEntry("P04637");
  const entry: Record<string, unknown> = rehost(
    {
      ...tp53,
      modelEntityId: "AF-Q7Z6M3-F1",
      entryId: "AF-Q7Z6M3-F1",
      uniprotAccession: "Q7Z6M3",
      uniprotId: "MILR1_HUMAN",
      uniprotDescription: "Allergin-1",
      gene: "MILR1",
      sequence: model.sequence,
      uniprotSequence: model.sequence,
      sequenceEnd: model.sequence.length,
      uniprotEnd: model.sequence.length,
      globalMetricValue: 74.57,
      latestVersion: 1,
      allVersions: [1],
      pdbUrl: "https://alphafold.ebi.ac.uk/files/AF-Q7Z6M3-F1-model_v1.pdb",
      cifUrl: "https://alphafold.ebi.ac.uk/files/AF-Q7Z6M3-F1-model_v1.cif",
      plddtDocUrl: "https://alphafold.ebi.ac.uk/files/AF-Q7Z6M3-F1-confidence_v1.json",
      paeDocUrl: "https://alphafold.ebi.ac.uk/files/AF-Q7Z6M3-F1-predicted_aligned_error_v1.json",
    },
    links,
  );
  for (const k of [
    "fractionPlddtVeryHigh",
    "fractionPlddtConfident",
    "fractionPlddtLow",
    "fractionPlddtVeryLow",
  ])
    delete entry[k];
  up.route("GET", "/api/prediction/Q7Z6M3", { json: [entry] });
  up.route("GET", "/files/AF-Q7Z6M3-F1-model_v1.pdb", { text: model.pdb });
  up.route("GET", "/files/AF-Q7Z6M3-F1-model_v1.cif", { text: model.cif });
  up.route("GET", "/files/AF-Q7Z6M3-F1-confidence_v1.json", {
    json: {
      residueNumber: model.plddt.map((_, i) => i + 1),
      confidenceScore: model.plddt,
      confidenceCategory: model.plddt.map((v) => (v >= 90 ? "H" : v >= 70 ? "M" : v >= 50 ? "L" : "D")),
    },
  });
  routeUniParc(up, [
    { sequence: model.sequence, upi: "UPI00000A0001", accession: "Q7Z6M3" },
    { sequence: recordedEntry("P04637").sequence, upi: "UPI00000A0002", accession: "P04637" },
  ]);
  up.route("POST", "/foldSequence/v1/pdb/", (req) => ({ text: esmfoldPdb(req.body, model.plddt) }));
  return { up, model };
};

/** An emulator as started by {@link startAfdbEmulator}. */
export type AfdbEmulator = Emulator;
