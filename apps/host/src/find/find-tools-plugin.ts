import { type Catalog, definePlugin, defineTool, outcome } from "@quiver/core";
import { z } from "zod";
import pkg from "../../package.json" with { type: "json" };
import type { ToolFinder } from "./tool-finder.js";

/** The name of the discovery tool the host offers to models. */
export const FIND_TOOL_NAME = "quiver_find_tools";

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
export const createFindToolsPlugin = (
  catalog: Catalog,
  options: {
    /**
     * Whether a caller with these token scopes may call a tool (undefined scopes: not scope-limited);
     * the tools it may not call are never found for it. Default: every tool.
     */
    readonly mayCall?: (
      tool: { name: string; plugin: string },
      scopes: ReadonlyArray<string> | undefined,
    ) => boolean;
  } = {},
) => {
  // The ranker (BM25 index, tokenizer, @quiver/search) loads on the first search: a host that never
  // searches, such as `quiver list`, registers this plugin without paying for it.
  let finder: ToolFinder | undefined;
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
    run: async ({ need, limit, category }, ctx) => {
      if (!finder) {
        const { createToolFinder } = await import("./tool-finder.js");
        finder ??= createToolFinder(catalog);
      }
      const { mayCall } = options;
      const tools = finder
        // Ranked past the limit when some tools are hidden from this caller, then cut.
        .rank(need, { limit: mayCall ? catalog.list().length : limit, ...(category ? { category } : {}) })
        .filter((t) => !mayCall || mayCall(t, ctx.caller.scopes))
        .slice(0, limit)
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
    version: pkg.version,
    description: "The host's own tools: find the right tool for a need.",
    instructions: `Call ${FIND_TOOL_NAME} with a need in words to find the right tool when none you know fits.`,
    tools: [tool],
    dispose: () => finder?.dispose(),
  });
};
