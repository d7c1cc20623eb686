import { CommandUsageError, type PluginCommand } from "@quiver/core";
import type { GlossaryConfig } from "../config.js";
import type { GlossaryResources } from "../setup.js";

/** `quiver glossary add <term> <definition…> [--source <url>] [--replace]`: adds a term to the glossary file. */
export const add: PluginCommand<GlossaryConfig, GlossaryResources> = {
  name: "add",
  summary: "Add a term and its definition to the glossary.",
  description:
    "Appends the term to the glossary file (GLOSSARY_FILE). A term the glossary already has is refused unless --replace is given.",
  positionals: { min: 2, names: "<term> <definition…>" },
  options: {
    source: { type: "string", value: "<url>", description: "Where the definition comes from." },
    replace: { type: "boolean", description: "Replace the definition of a term the glossary already has." },
  },
  examples: [
    'quiver glossary add RAG "Retrieval-augmented generation: answering from retrieved passages."',
    'quiver glossary add MCP "Model Context Protocol" --source https://modelcontextprotocol.io',
  ],
  run: async (ctx) => {
    const [term = "", ...words] = ctx.args;
    const definition = words.join(" ").trim();
    if (term.trim() === "" || definition === "") {
      throw new CommandUsageError(
        "A term and a definition are required.",
        'quiver glossary add RAG "Retrieval-augmented generation"',
      );
    }
    const existing = ctx.resources.lookup(term);
    if (existing !== undefined && ctx.flags.replace !== true) {
      throw new CommandUsageError(
        `The glossary already defines "${existing.term}": ${existing.definition}`,
        "Add --replace to change its definition.",
      );
    }
    const source = typeof ctx.flags.source === "string" ? ctx.flags.source : undefined;
    const entry = source === undefined ? { term, definition } : { term, definition, source };
    await ctx.resources.add([entry]);
    if (ctx.json) ctx.printJson({ added: entry, file: ctx.config.file });
    else ctx.print(`${existing === undefined ? "added" : "replaced"} "${term}" in ${ctx.config.file}`);
    return 0;
  },
};
