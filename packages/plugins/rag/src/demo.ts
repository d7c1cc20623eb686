import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginDemo } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };

/** The demo data shipped with the package (see demo/SOURCE.md), computed at the top of `src/` so it holds in `dist/` too. */
export const DEMO_DIR: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");

/**
 * The rag plugin's demo step: an embedded index of the data the package ships (two real UGR teaching
 * guides and 400 SciFact abstracts, see demo/SOURCE.md), built once and reused while the data and the
 * plugin version are unchanged. Skipped when the user chose their own index or service.
 */
export const ragDemo: PluginDemo = {
  skipWhenSet: ["RAG_SERVICE_URL", "RAG_INDEX_PATH", "RAG_BACKEND", "DATABASE_URL"],
  data: [DEMO_DIR],
  seed: async (ctx) => {
    // The index builder is loaded only when demo mode seeds, not at import.
    const { buildDemoIndex, demoFiles } = await import("./internal/demo-index.js");
    const build = ctx.cached("rag-demo.db", { tag: `rag@${pkg.version}`, files: await demoFiles() });
    const options = { backend: "embedded", indexPath: build.path };
    if (build.fresh) return { options, message: `demo index reused from ${build.path}` };
    const { documents, chunks, subjects, indexPath } = await buildDemoIndex(build.path);
    await build.markFresh();
    const message = `built a demo index of ${documents} documents (${chunks} chunks; subjects ${subjects.join(", ")}) at ${indexPath}`;
    return { options, message };
  },
};
