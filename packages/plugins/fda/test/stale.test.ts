import { describeStaleFallback } from "@quiver/testing";
import { createFdaPlugin } from "../src/index.js";
import { startOpenFdaEmulator } from "./support/openfda-emulator.js";

describeStaleFallback({
  upstream: "openFDA",
  plugin: createFdaPlugin,
  start: async () => {
    const { up } = await startOpenFdaEmulator();
    return { up, options: { baseUrl: up.url } };
  },
  tool: "fda_search_drugs",
  input: { search_criteria: { active_ingredient: "semaglutide" } },
  // Two hours later: past the one-hour cache.
  afterMs: 2 * 3_600_000,
  errorKind: "unavailable",
  unansweredInput: { search_criteria: { active_ingredient: "tirzepatide" } },
});
