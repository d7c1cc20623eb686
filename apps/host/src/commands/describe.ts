import type { CommandSpec } from "../cli/command.js";

/** `quiver describe <tool>`: description, schemas, examples and policy of one tool. */
export const describeCommand: CommandSpec = {
  name: "describe",
  summary: "Show a tool's description, input schema, examples and policy",
  usage: "describe <tool> [--target mcp|openai|anthropic|gemini] [--json]",
  positionals: { min: 1, max: 1, names: "<tool>" },
  options: {
    target: {
      type: "string",
      value: "<format>",
      description: "Schema format: mcp (default), openai, anthropic, gemini",
    },
    output: { type: "boolean", description: "Also print the output schema" },
  },
  examples: ["quiver describe fda_search_drugs", "quiver describe guia_get_guide --target openai --json"],
  // The implementation (and what it imports) loads only when the command runs, not for help or other commands.
  run: async (ctx) => (await import("./describe-run.js")).runDescribe(ctx),
};
