import { type Catalog, definePlugin, defineTool, outcome } from "@quiver/core";
import { z } from "zod";
import { VERSION } from "../version.js";
import { indexTools, type ToolIndex } from "./rank-tools.js";

/** The name of the discovery tool the host offers to models. */
export const FIND_TOOL_NAME = "quiver_find_tools";

/**
 * Keeps a BM25 index of a catalog's tools, rebuilt when the catalog changes.
 *
 * @example
 * const finder = createToolFinder(catalog)
 * finder.rank("protein structure from a sequence")
 */
export const createToolFinder = (catalog: Catalog): ToolIndex & { readonly dispose: () => void } => {
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

const match = z.object({
  name: z.string().describe("The tool's name: call it with this name"),
  plugin: z.string(),
  description: z.string(),
  category: z.string(),
  available: z
    .boolean()
    .describe("False when the tool's plugin is not configured (it would answer unavailable)"),
  score: z.number(),
  matched: z.array(z.string()),
});

/**
 * The host's own plugin (id `quiver`) with one tool, `quiver_find_tools`: ranks the catalog's tools for
 * a need in words, so an agent can discover tools it was not told about.
 *
 * @example
 * catalog.register(createFindToolsPlugin(catalog))
 * await catalog.call("quiver_find_tools", { need: "FDA-approved kinase inhibitors" })
 */
export const createFindToolsPlugin = (catalog: Catalog) => {
  const finder = createToolFinder(catalog);
  const tool = defineTool({
    name: FIND_TOOL_NAME,
    title: "Find tools",
    description:
      "Finds the tools of this server that fit a need described in words, best first, with their descriptions. " +
      "Use this when no tool you know fits the task, or to discover tools you were not told about; then call the tool it names.",
    category: "discovery",
    input: z.object({
      need: z
        .string()
        .min(1)
        .describe("What you need to do, in words (e.g. 'find FDA-approved kinase inhibitors')"),
      limit: z.number().int().min(1).max(20).default(5).describe("How many tools to return at most"),
      category: z
        .string()
        .optional()
        .describe("Only tools of this category (scientific_database, web_search, documentation ...)"),
    }),
    output: z.object({ need: z.string(), tools: z.array(match) }),
    examples: [{ input: { need: "find FDA-approved kinase inhibitors" } }],
    annotations: { readOnly: true, idempotent: true, openWorld: false },
    policy: { cache: false, retry: false, timeout: "5s" },
    instruction: "Pick the best-fitting tool and call it by name; prefer available tools.",
    run: ({ need, limit, category }) => {
      const tools = finder
        .rank(need, { limit, ...(category ? { category } : {}) })
        .map((t) => ({ ...t, matched: [...t.matched] }));
      return outcome(
        { need, tools },
        {
          message:
            tools.length === 0
              ? `No tool matches "${need}"; list the tools to see what there is.`
              : `${tools.length} tool${tools.length === 1 ? "" : "s"} for "${need}", best first: ${tools.map((t) => t.name).join(", ")}.`,
        },
      );
    },
  });
  return definePlugin({
    specificationVersion: "v1",
    id: "quiver",
    version: VERSION,
    description: "The host's own tools: find the right tool for a need.",
    tools: [tool],
    dispose: finder.dispose,
  });
};
