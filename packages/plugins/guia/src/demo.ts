import type { PluginDemo } from "@quiver/core";
import { SEED_GUIDES_DIR } from "./internal/stores/folder-store.js";

/**
 * The guia plugin's demo step: the real UGR teaching guides the package ships (demo/, see
 * demo/SOURCE.md) imported through the plugin's own validating importer into a demo folder store, so
 * what is served is what `quiver guia import` would load. Reused while the guides and the plugin
 * version are unchanged; skipped when the user chose their own store.
 */
export const guiaDemo: PluginDemo = {
  skipWhenSet: ["GUIA_DIR", "GUIA_STORE", "MONGODB_URI"],
  data: [SEED_GUIDES_DIR],
  // The seed body (importer) is loaded only when demo mode seeds, not when the plugin is imported.
  seed: (ctx) => import("./demo-seed.js").then((m) => m.seedGuia(ctx)),
};
