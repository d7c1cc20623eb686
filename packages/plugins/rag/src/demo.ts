import type { PluginDemo } from "@quiver/core";
import { buildDemoIndex, DEMO_DIR, demoFiles } from "./internal/demo-index.js";
import { VERSION } from "./version.js";

/**
 * The rag plugin's demo step: an embedded index of the data the package ships (two real UGR teaching
 * guides and 400 SciFact abstracts, see demo/SOURCE.md), built once and reused while the data and the
 * plugin version are unchanged. Skipped when the user chose their own index or service.
 */
export const ragDemo: PluginDemo = {
  skipWhenSet: ["RAG_SERVICE_URL", "RAG_INDEX_PATH", "RAG_BACKEND", "DATABASE_URL"],
  data: [DEMO_DIR],
  seed: async (ctx) => {
    const build = ctx.cached("rag-demo.db", { tag: `rag@${VERSION}`, files: await demoFiles() });
    const options = { backend: "embedded", indexPath: build.path };
    if (build.fresh) return { options, message: `demo index reused from ${build.path}` };
    const report = await buildDemoIndex(build.path);
    await build.markFresh();
    return {
      options,
      message: `built a demo index of ${report.documents} documents (${report.chunks} chunks; subjects ${report.subjects.join(", ")}) at ${report.indexPath}`,
    };
  },
};
