import type { DemoContext, DemoResult } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { buildDemoIndex, demoFiles } from "./internal/demo-index.js";

/**
 * The body of the rag demo step (its definition is in demo.ts): builds the demo index, or reuses the
 * last build; kept apart so listing plugins does not load the index builder.
 */
export const seedRag = async (ctx: DemoContext): Promise<DemoResult> => {
  const build = ctx.cached("rag-demo.db", { tag: `rag@${pkg.version}`, files: await demoFiles() });
  const options = { backend: "embedded", indexPath: build.path };
  if (build.fresh) return { options, message: `demo index reused from ${build.path}` };
  const report = await buildDemoIndex(build.path);
  await build.markFresh();
  return {
    options,
    message: `built a demo index of ${report.documents} documents (${report.chunks} chunks; subjects ${report.subjects.join(", ")}) at ${report.indexPath}`,
  };
};
