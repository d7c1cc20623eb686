import { TOOL_NAME } from "../define-tool.js";

/**
 * Other names for tools (`{ search_web: "perplexity_search_web" }`), so clients written against older
 * names keep working. An alias must be a valid tool name, stand for a real tool (not another alias),
 * and not be the name of a registered tool; every mistake is a thrown error naming the alias.
 *
 * @example
 * const aliases = toolAliases({ get_guia: "guia_get_guide" })
 * aliases.entries // [["get_guia", "guia_get_guide"]]
 */
export const toolAliases = (map: Readonly<Record<string, string>> = {}) => {
  const entries = Object.entries(map);
  const problems: string[] = [];
  for (const [alias, tool] of entries) {
    if (!TOOL_NAME.test(alias))
      problems.push(`alias "${alias}": a tool name has 1-64 letters, digits, "_" or "-".`);
    if (alias === tool) problems.push(`alias "${alias}" stands for itself.`);
    else if (Object.hasOwn(map, tool))
      problems.push(`alias "${alias}" stands for "${tool}", another alias: name the tool itself.`);
  }
  if (problems.length > 0) throw new Error(`Invalid tool aliases: ${problems.join(" ")}`);
  return {
    /** The aliases, as `[alias, tool]` pairs in the order given. */
    entries: entries as ReadonlyArray<readonly [alias: string, tool: string]>,
    /** Throws when one of a plugin's tools would take an alias's name. */
    checkTools: (pluginId: string, toolNames: ReadonlyArray<string>) => {
      const clashes = toolNames.filter((n) => Object.hasOwn(map, n));
      if (clashes.length > 0)
        throw new Error(
          `Plugin "${pluginId}" has ${clashes.map((n) => `a tool named "${n}"`).join(" and ")}, which is also an alias (for ${clashes.map((n) => `"${map[n]}"`).join(", ")}): remove or rename the alias.`,
        );
    },
    /** Throws, naming every one, when an alias stands for a tool that is not registered. */
    checkTargets: (isTool: (name: string) => boolean) => {
      const missing = entries.filter(([, tool]) => !isTool(tool));
      if (missing.length > 0)
        throw new Error(
          `${missing.map(([alias, tool]) => `Alias "${alias}" stands for "${tool}", which is not a registered tool.`).join(" ")} Install or enable the plugin that has it, or remove the alias.`,
        );
    },
  };
};
