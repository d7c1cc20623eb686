import type { CommandSpec } from "../cli/command.js";

/** `quiver find "<need>"`: ranks the catalog's tools for a need in words. */
export const findCommand: CommandSpec = {
  name: "find",
  summary: "Rank the tools for a need described in words",
  usage: 'find "<need in words>" [--limit <n>] [--category <name>] [--json]',
  description:
    "Ranks by BM25 over each tool's name, title, category, plugin, description and examples.\nExit code 1 when no tool matches.",
  positionals: { min: 1, names: '"<need>"' },
  options: {
    limit: { type: "string", value: "<n>", description: "How many tools to show (default 5)" },
    category: { type: "string", value: "<name>", description: "Only tools of this category" },
  },
  examples: ['quiver find "find FDA-approved kinase inhibitors"', 'quiver find "protein structure" --json'],
  // The implementation (and what it imports) loads only when the command runs, not for help or other commands.
  run: async (ctx) => (await import("./find-run.js")).runFind(ctx),
};
