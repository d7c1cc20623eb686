import { usePluginOnEmulator } from "@quiver/testing";
import { createFdaPlugin } from "../../src/index.js";
import { recorded, startOpenFdaEmulator } from "./openfda-emulator.js";

/**
 * The openFDA emulator for a test file (`usePluginOnEmulator`: started before the file's tests, its
 * faults cleared after each, closed after the file), the recorded data it serves, and `fdaCatalog`: a
 * catalog (without the machine's environment) with a fresh FDA plugin (a fresh daily budget) pointed at
 * the emulator, closed after the test; `options` go over the emulator's URL. `up` can be destructured at
 * the top of the file and used inside tests.
 */
export const useOpenFdaEmulator = () => {
  const { up, catalog } = usePluginOnEmulator({
    plugin: createFdaPlugin,
    start: async () => (await startOpenFdaEmulator()).up,
    catalog: { env: {} },
  });
  return { up, rec: recorded(), fdaCatalog: catalog };
};
