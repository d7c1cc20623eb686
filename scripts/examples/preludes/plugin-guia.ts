// What @quiver/plugin-guia's examples take as given (see scripts/examples/check-examples.mjs).
export { importGuides } from "../../src/internal/import-guides.js";
export { openGuideStore } from "../../src/internal/open-guide-store.js";
/** A value from a caller, not yet known to be a subject id. */
export declare const input: unknown;
