import { describeStaleFallback } from "@quiver/testing";
import { createAlphafoldPlugin } from "../src/index.js";
import { startAfdbEmulator } from "./support/afdb-emulator.js";
import { at } from "./support/catalog.js";

describeStaleFallback({
  upstream: "the structure services",
  plugin: createAlphafoldPlugin,
  start: async () => {
    const { up } = await startAfdbEmulator();
    return { up, options: at(up) };
  },
  tool: "alphafold_predict_structure",
  input: { uniprot_accession: "Q7Z6M3" },
  // Two days later: past the 24-hour cache.
  afterMs: 2 * 86_400_000,
});
