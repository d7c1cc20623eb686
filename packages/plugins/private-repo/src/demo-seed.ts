import { rm } from "node:fs/promises";
import type { DemoContext, DemoResult } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { CORPUS, LAB_PUBLICATIONS } from "./demo.js";
import { addDocuments } from "./internal/add-documents.js";

/**
 * The body of the private-repo demo step (its definition is in demo.ts): builds the demo collections, or
 * reuses the last build; kept apart so listing plugins does not load the document loaders.
 */
export const seedPrivateRepo = async (ctx: DemoContext): Promise<DemoResult> => {
  const owner = ctx.principal;
  const build = ctx.cached("repository", {
    tag: `private-repo@${pkg.version}|${owner}`,
    files: [CORPUS, LAB_PUBLICATIONS],
  });
  const options = { indexPath: build.path };
  if (build.fresh)
    return { options, message: `demo repository reused from ${build.path} (owner "${owner}")` };
  await rm(build.path, { recursive: true, force: true });
  const r = await addDocuments({ indexPath: build.path, owner, collection: "scifact", files: CORPUS });
  const lab = await addDocuments({
    indexPath: build.path,
    owner,
    collection: "lab_publications",
    files: LAB_PUBLICATIONS,
  });
  await build.markFresh();
  return {
    options,
    message: `built a demo repository of ${r.documents} SciFact abstracts as ${r.owner}/${r.collection} and ${lab.documents} lab abstracts as ${owner}/${lab.collection} (${r.chunks + lab.chunks} chunks) at ${build.path}; call it as principal "${r.owner}"`,
  };
};
