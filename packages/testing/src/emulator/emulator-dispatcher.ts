import { Agent, type Dispatcher } from "undici";
import type { Emulator } from "./start-emulator.js";

/**
 * An undici dispatcher that sends every request, whatever its host, to the emulator (same method,
 * path, query, headers and body). Give it to `@quiver/record`'s cassette client (`createCassetteHttpClient({
 * dir, mode: "record", dispatcher: emulatorDispatcher(up) })`) to record a plugin running with its
 * real upstream URLs while the emulator answers: the cassettes then name `https://api.fda.gov/…`,
 * not a random local port, and replay with the plugin's default settings.
 *
 * Close it after use (`await dispatcher.close()`), or let the emulator's close end its sockets.
 *
 * @example
 * const http = createCassetteHttpClient({ dir, mode: "record", dispatcher: emulatorDispatcher(up) });
 */
export const emulatorDispatcher = (emulator: Pick<Emulator, "url">): Dispatcher =>
  new Agent().compose((dispatch) => (opts, handler) => dispatch({ ...opts, origin: emulator.url }, handler));
