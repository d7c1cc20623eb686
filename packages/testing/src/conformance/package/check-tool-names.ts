import type { AnyPlugin } from "@quiver/core";
import { MAX_TOOL_NAME_LENGTH, TOOL_NAME, toolPrefix } from "./naming.js";

/**
 * Checks the naming rule on every tool: `<plugin_id>_<verb>[_<object>...]` in snake_case (the plugin id
 * with `-` turned into `_`), at most 48 characters, no two alike. Returns what to change.
 *
 * @example
 * checkToolNames(fdaPlugin) // [] — fda_search_drugs, fda_count_drugs
 */
export const checkToolNames = (plugin: Pick<AnyPlugin, "id" | "tools">): string[] => {
  const prefix = toolPrefix(plugin.id);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { name } of plugin.tools) {
    if (seen.has(name)) problems.push(`tool "${name}" is defined twice: give each tool its own name.`);
    seen.add(name);
    if (!TOOL_NAME.test(name))
      problems.push(
        `tool "${name}" is not snake_case <plugin_id>_<verb>[_<object>]: use lower-case words joined by "_", such as "${prefix}search".`,
      );
    if (!name.startsWith(prefix))
      problems.push(
        `tool "${name}" must start with the plugin prefix "${prefix}": rename it, e.g. "${prefix}${name}".`,
      );
    if (name.length > MAX_TOOL_NAME_LENGTH)
      problems.push(
        `tool "${name}" has ${name.length} characters: shorten it to at most ${MAX_TOOL_NAME_LENGTH} (MCP clients prefix the server name).`,
      );
  }
  return problems;
};
