import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginDemo } from "@quiver/core";

/** The demo data shipped with the package (see demo/SOURCE.md). */
const DEMO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");
/** The SciFact abstracts the demo collection is built from. */
export const CORPUS = join(DEMO_DIR, "scifact", "corpus.jsonl");

/**
 * The private-repo demo step: 400 SciFact abstracts shipped in demo/ as the demo principal's
 * collection `scifact`, built once and reused while the data, the plugin version and the principal are
 * unchanged. Skipped when the user chose a repository (QUIVER_PRIVATE_REPO).
 */
export const privateRepoDemo: PluginDemo = {
  skipWhenSet: ["QUIVER_PRIVATE_REPO", "DATABASE_URL"],
  data: [CORPUS],
  // The seed body (loaders, repository) is loaded only when demo mode seeds, not at import.
  seed: (ctx) => import("./demo-seed.js").then((m) => m.seedPrivateRepo(ctx)),
};
