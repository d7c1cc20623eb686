import { rm } from "node:fs/promises";
import type { PluginDemo } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { importGuides } from "./internal/import-guides.js";
import { guideFilesUnder } from "./internal/read-guide-file.js";
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
      if (build.fresh) {
        const subjects = (await store.list()).map((g) => g.subject);
        const message = `${subjects.length} teaching guides reused from ${build.path} (${subjects.join(", ")})`;
        return { options, message };
      }
      await rm(build.path, { recursive: true, force: true });
      const report = await importGuides(SEED_GUIDES_DIR, store);
      await build.markFresh();
      const subjects = report.imported.map((i) => i.subject).join(", ");
      const skipped = report.skipped.length > 0 ? `, skipped ${report.skipped.length}` : "";
      const message = `${report.imported.length} teaching guides imported into ${build.path} (${subjects}${skipped})`;
      return { options, message };
    } finally {
      await store.close();
    }
  },
};
