import { rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginDemo } from "@quiver/core";
import { addDocuments } from "./internal/add-documents.js";
import { VERSION } from "./version.js";

/** The demo data shipped with the package (see demo/SOURCE.md). */
const DEMO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");
const CORPUS = join(DEMO_DIR, "scifact", "corpus.jsonl");

/**
 * The private-repo demo step: 400 SciFact abstracts shipped in demo/ as the demo principal's
 * collection `scifact`, built once and reused while the data, the plugin version and the principal are
 * unchanged. Skipped when the user chose a repository (QUIVER_PRIVATE_REPO).
 */
export const privateRepoDemo: PluginDemo = {
  skipWhenSet: ["QUIVER_PRIVATE_REPO", "DATABASE_URL"],
  data: [CORPUS],
  seed: async (ctx) => {
    const owner = ctx.principal;
    const build = ctx.cached("repository", { tag: `private-repo@${VERSION}|${owner}`, files: [CORPUS] });
    const options = { indexPath: build.path };
    if (build.fresh)
      return { options, message: `demo repository reused from ${build.path} (owner "${owner}")` };
    await rm(build.path, { recursive: true, force: true });
    const r = await addDocuments({ indexPath: build.path, owner, collection: "scifact", files: CORPUS });
    await build.markFresh();
    return {
      options,
      message: `built a demo repository of ${r.documents} SciFact abstracts (${r.chunks} chunks) as ${r.owner}/${r.collection} at ${build.path}; call it as principal "${r.owner}"`,
    };
  },
};
