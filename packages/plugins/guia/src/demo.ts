import { rm } from "node:fs/promises";
import type { PluginDemo } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { guideFilesUnder, importGuides } from "./internal/import-guides.js";
import { createFolderGuideStore, SEED_GUIDES_DIR } from "./internal/stores/folder-store.js";

/**
 * The guia plugin's demo step: the real UGR teaching guides the package ships (demo/, see
 * demo/SOURCE.md) imported through the plugin's own validating importer into a demo folder store, so
 * what is served is what `quiver guia import` would load. Reused while the guides and the plugin
 * version are unchanged; skipped when the user chose their own store.
 */
export const guiaDemo: PluginDemo = {
  skipWhenSet: ["GUIA_DIR", "GUIA_STORE", "MONGODB_URI"],
  data: [SEED_GUIDES_DIR],
  seed: async (ctx) => {
    const files = await guideFilesUnder(SEED_GUIDES_DIR);
    const build = ctx.cached("guides", { tag: `guia@${pkg.version}`, files });
    const options = { store: "folder", guidesDir: build.path, seed: false };
    const store = createFolderGuideStore({ dir: build.path, seed: false });
    try {
      let done = `reused from ${build.path}`;
      let skipped = "";
      if (!build.fresh) {
        await rm(build.path, { recursive: true, force: true });
        const report = await importGuides(SEED_GUIDES_DIR, store);
        await build.markFresh();
        done = `imported into ${build.path}`;
        if (report.skipped.length > 0) skipped = `, skipped ${report.skipped.length}`;
      }
      const subjects = (await store.list()).map((g) => g.subject);
      const message = `${subjects.length} teaching guides ${done} (${subjects.join(", ")}${skipped})`;
      return { options, message };
    } finally {
      await store.close();
    }
  },
};
