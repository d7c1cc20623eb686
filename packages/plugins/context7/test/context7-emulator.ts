import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { routeContext7 } from "./context7-upstream.js";

/**
 * Starts the Context7 emulator for a test file: Context7's routes afresh before each test, closed
 * after the last. Read the emulator as `emu.up` inside tests.
 *
 * @example
 * const emu = useContext7Emulator();
 * it("...", () => emu.up.route("GET", "/api/v2/context", { text: "" }));
 */
export const useContext7Emulator = (): { readonly up: Emulator } => {
  const holder = {} as { up: Emulator };
  beforeAll(async () => {
    holder.up = await startEmulator();
  });
  beforeEach(() => {
    holder.up.reset();
    routeContext7(holder.up);
  });
  afterAll(async () => {
    await holder.up.close();
  });
  return holder;
};
