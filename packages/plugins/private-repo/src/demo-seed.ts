import { rm } from "node:fs/promises";
import type { DemoContext, DemoResult } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { CORPUS, DEMO_FILES, LAB_PUBLICATIONS } from "./demo.js";
import { addDocuments } from "./internal/add-documents.js";

/**
 * The body of the private-repo demo step (its definition is in demo.ts): builds the demo collections, or
 * reuses the last build; kept apart so listing plugins does not load the document loaders.
 */
export const seedPrivateRepo = async (ctx: DemoContext): Promise<DemoResult> => {
  const owner = ctx.principal;
  const build = ctx.cached("repository", { tag: `private-repo@${pkg.version}|${owner}`, files: DEMO_FILES });
  const options = { indexPath: build.path };
  if (build.fresh)
    return { options, message: `demo repository reused from ${build.path} (owner "${owner}")` };
  await rm(build.path, { recursive: true, force: true });
  const add = (collection: string, files: string) => addDocuments({ ...options, owner, collection, files });
  const r = await add("scifact", CORPUS);
  const lab = await add("lab_publications", LAB_PUBLICATIONS);
  await build.markFresh();
  return {
    options,
    message: `built a demo repository of ${r.documents} SciFact abstracts as ${r.owner}/${r.collection} and ${lab.documents} lab abstracts as ${owner}/${lab.collection} (${r.chunks + lab.chunks} chunks) at ${build.path}; call it as principal "${r.owner}"`,
  };
};
