import type { Catalog } from "@quiver/core";
import { FIND_TOOL_NAME } from "./find-tools-plugin.js";
import { indexTools, type ToolIndex } from "./rank-tools.js";

/** A catalog's tool ranker, and how to stop it following the catalog's changes. */
export type ToolFinder = ToolIndex & { readonly dispose: () => void };

/**
 * Keeps a BM25 index of a catalog's tools, rebuilt when the catalog changes.
 *
 * @example
 * const finder = createToolFinder(catalog)
 * finder.rank("protein structure from a sequence")
 */
export const createToolFinder = (catalog: Catalog): ToolFinder => {
  let index: ToolIndex | undefined;
  const dispose = catalog.onChange(() => {
    index = undefined;
  });
  const build = () =>
    indexTools(
      catalog
        .list()
        .filter((t) => t.name !== FIND_TOOL_NAME)
        .map((t) => ({ ...t, examples: catalog.describe(t.name)?.examples ?? [] })),
    );
  return {
    rank: (need, options) => {
      index ??= build();
      return index.rank(need, options);
    },
    dispose: () => {
      dispose();
    },
  };
};
