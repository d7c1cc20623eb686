import pkg from "../package.json" with { type: "json" };

export { type Cassette, type CassetteInteraction, parseCassette } from "./cassette.js";
export { cassettePath } from "./cassette-file.js";
export { type CassetteHttpClientOptions, createCassetteHttpClient } from "./cassette-http-client.js";
export type { ReplayTiming } from "./cassette-interceptor.js";
export { CASSETTE_MODES, type CassetteMode } from "./cassette-mode.js";
export { stringifyCassette } from "./stable-json.js";

/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
