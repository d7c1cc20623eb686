import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { DemoContext, DemoResult } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { importGuides } from "./internal/import-guides.js";
import { createFolderGuideStore, SEED_GUIDES_DIR } from "./internal/stores/folder-store.js";

/** The guide files shipped in demo/ (for the demo cache's fingerprint). */
const guideFiles = async (): Promise<string[]> =>
  (await readdir(SEED_GUIDES_DIR))
    .filter((f) => /\.(json|ya?ml)$/i.test(f))
    .sort()
    .map((f) => join(SEED_GUIDES_DIR, f));

/**
 * The body of the guia demo step (its definition is in demo.ts): imports the shipped guides into a
 * demo folder store, or reuses the last build; kept apart so listing plugins does not load the importer.
 */
export const seedGuia = async (ctx: DemoContext): Promise<DemoResult> => {
  const build = ctx.cached("guides", { tag: `guia@${pkg.version}`, files: await guideFiles() });
  const options = { store: "folder", guidesDir: build.path, seed: false };
  const store = createFolderGuideStore({ dir: build.path, seed: false });
  try {
    if (build.fresh) {
      const guides = await store.list();
      return {
        options,
        message: `${guides.length} teaching guides reused from ${build.path} (${guides.map((g) => g.subject).join(", ")})`,
      };
    }
    await rm(build.path, { recursive: true, force: true });
    const report = await importGuides(SEED_GUIDES_DIR, store);
    await build.markFresh();
    const skipped = report.skipped.length > 0 ? `, skipped ${report.skipped.length}` : "";
    return {
      options,
      message: `${report.imported.length} teaching guides imported into ${build.path} (${report.imported.map((i) => i.subject).join(", ")}${skipped})`,
    };
  } finally {
    await store.close();
  }
};
