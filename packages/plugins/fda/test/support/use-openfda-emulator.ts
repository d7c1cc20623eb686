import type { Emulator } from "@quiver/testing";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type Recorded, startOpenFdaEmulator } from "./openfda-emulator.js";

/**
 * Starts the openFDA emulator before the file's tests, clears its faults after each test and closes
 * it after the file; read `up` and `rec` inside tests (they are set once `beforeAll` ran).
 */
export const useOpenFdaEmulator = (): { up: Emulator; rec: Recorded } => {
  const env = {} as { up: Emulator; rec: Recorded };
  beforeAll(async () => {
    Object.assign(env, await startOpenFdaEmulator());
  });
  afterEach(() => env.up.clearFaults());
  afterAll(async () => {
    await env.up.close();
  });
  return env;
};
