import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginDemo } from "@quiver/core";

/** The demo data shipped with the package (see demo/SOURCE.md). */
const DEMO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");
/** The SciFact abstracts the demo collection `scifact` is built from. */
export const CORPUS = join(DEMO_DIR, "scifact", "corpus.jsonl");
/** The self-written lab abstracts of the collection `lab_publications` (the co-scientist's examples name it). */
export const LAB_PUBLICATIONS = join(DEMO_DIR, "lab-publications", "abstracts.jsonl");
/** Every demo data file (a change to any rebuilds the demo repository). */
export const DEMO_FILES = [CORPUS, LAB_PUBLICATIONS];

/**
 * The private-repo demo step: the data shipped in demo/ as the demo principal's collections
 * `scifact` (400 SciFact abstracts) and `lab_publications` (5 lab abstracts), built once and reused
 * while the data, the plugin version and the principal are unchanged. Skipped when the user chose a
 * repository (QUIVER_PRIVATE_REPO).
 */
export const privateRepoDemo: PluginDemo = {
  skipWhenSet: ["QUIVER_PRIVATE_REPO", "DATABASE_URL"],
  data: DEMO_FILES,
  // The seed body (loaders, repository) is loaded only when demo mode seeds, not at import.
  seed: (ctx) => import("./demo-seed.js").then((m) => m.seedPrivateRepo(ctx)),
};
