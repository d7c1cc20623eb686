import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CassetteMode, createCassetteHttpClient, type ToolResult } from "@quiver/core";
import { type Emulator, emulatorDispatcher } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAfdbEmulator } from "./support/afdb-emulator.js";
import { afCatalog, session } from "./support/catalog.js";

/**
 * The committed cassettes: these calls recorded against the emulator (which serves the recorded AFDB
 * responses, see fixtures/SOURCE.md) with the plugin's default upstream URLs. To record them again:
 * QUIVER_UPDATE_CASSETTES=1 ./dev test packages/plugins/alphafold/test/record-replay.test.ts
 */
const COMMITTED = fileURLToPath(new URL("cassettes/", import.meta.url));
const UPDATE = process.env.QUIVER_UPDATE_CASSETTES === "1";

const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["alphafold_predict_structure", { uniprot_accession: "P04637" }],
  ["alphafold_predict_structure", { uniprot_accession: "Q7Z6M3" }],
  ["alphafold_predict_structure", { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ" }],
];

let up: Emulator;
beforeAll(async () => {
  ({ up } = await startAfdbEmulator({ linksTo: "https://alphafold.ebi.ac.uk" }));
});
afterAll(() => up.close());

const session_ = (dir: string, mode: CassetteMode, live: boolean) =>
  afCatalog(
    {},
    {
      http: createCassetteHttpClient({ dir, mode, ...(live ? { dispatcher: emulatorDispatcher(up) } : {}) }),
    },
  );

const callAll = async (catalog: ReturnType<typeof afCatalog>) => {
  const out: ToolResult[] = [];
  for (const [tool, input] of CALLS) out.push(await catalog.call(tool, input, session));
  return out;
};

const comparable = (r: ToolResult) => {
  const { callId: _id, durationMs: _ms, ...metadata } = r.metadata;
  return { ...r, metadata };
};

const files = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .sort();

const withoutTiming = (text: string) => text.replace(/"elapsed_ms": \d+/g, '"elapsed_ms": 0');

describe("AlphaFold tool calls recorded as cassettes", () => {
  let live: ToolResult[] = [];

  it("records the calls with the real upstream URLs; the committed cassettes are that recording", async () => {
    const dir = UPDATE ? COMMITTED : mkdtempSync(join(tmpdir(), "quiver-af-cassettes-"));
    live = await callAll(session_(dir, "record", true));
    // P04637: its entry is recorded, its model files are not (the emulator answers 404): partial.
    expect(live.map((r) => r.status)).toEqual(["partial", "success", "success"]);
    expect(up.requests.length).toBeGreaterThan(CALLS.length);
    expect(files(dir)).toEqual(files(COMMITTED));
    for (const f of files(COMMITTED)) {
      const committed = readFileSync(join(COMMITTED, f), "utf8");
      expect(committed).toContain('"url": "https://');
      expect(committed).not.toContain("127.0.0.1");
      expect(withoutTiming(readFileSync(join(dir, f), "utf8")), `${f} changed: record it again`).toBe(
        withoutTiming(committed),
      );
    }
  });

  it("replays the committed cassettes with the network closed, giving the live envelopes", async () => {
    const before = up.requests.length;
    const replayed = await callAll(session_(COMMITTED, "replay", false));
    expect(replayed.map(comparable)).toEqual(live.map(comparable));
    expect(up.requests.length).toBe(before);
  });
});
