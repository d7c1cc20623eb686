import { type Emulator, usePluginOnEmulator } from "@quiver/testing";
import { createFdaPlugin } from "../../src/index.js";
import { type Recorded, recorded, startOpenFdaEmulator } from "./openfda-emulator.js";

/**
 * The openFDA emulator for a test file (`usePluginOnEmulator`: started before the file's tests, its
 * faults cleared after each, closed after the file) and the recorded data it serves. `up` can be
 * destructured at the top of the file and used inside tests.
 */
export const useOpenFdaEmulator = (): { up: Emulator; rec: Recorded } => {
  const { up } = usePluginOnEmulator({
    plugin: createFdaPlugin,
    start: async () => (await startOpenFdaEmulator()).up,
  });
  return { up, rec: recorded() };
};
