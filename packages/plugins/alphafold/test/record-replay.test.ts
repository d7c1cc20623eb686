import { fileURLToPath } from "node:url";
import { describeRecordReplay } from "@quiver/testing";
import { startAfdbEmulator } from "./support/afdb-emulator.js";
import { afCatalog, session } from "./support/catalog.js";

/**
 * The committed cassettes: these calls recorded against the emulator (which serves the recorded AFDB
 * responses, see fixtures/SOURCE.md) with the plugin's default upstream URLs. To record them again:
 * QUIVER_UPDATE_CASSETTES=1 ./dev test packages/plugins/alphafold/test/record-replay.test.ts
 */
const COMMITTED = fileURLToPath(new URL("cassettes/", import.meta.url));

const CALLS = [
  { uniprot_accession: "P04637" },
  { uniprot_accession: "Q7Z6M3" },
  { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ" },
];

describeRecordReplay({
  title: "AlphaFold tool calls, as the committed cassettes,",
  start: async () => (await startAfdbEmulator({ linksTo: "https://alphafold.ebi.ac.uk" })).up,
  catalog: (http) => afCatalog({}, { http }),
  calls: CALLS.map((input) => ({ tool: "alphafold_predict_structure", input, options: session })),
  // P04637: its entry is recorded, its model files are not (the emulator answers 404): partial.
  statuses: ["partial", "success", "success"],
  recordedRequests: CALLS.length + 1,
  cassettes: { atLeast: CALLS.length },
  cassettesContain: ['"url": "https://'],
  cassettesOmit: ["127.0.0.1"],
  committed: {
    dir: COMMITTED,
    update: process.env.QUIVER_UPDATE_CASSETTES === "1",
    normalise: (text) => text.replace(/"elapsed_ms": \d+/g, '"elapsed_ms": 0'),
  },
});
