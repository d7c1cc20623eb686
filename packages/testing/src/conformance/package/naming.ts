/** A tool name: snake_case with at least two words, `<plugin_id>_<verb>[_<object>...]`. */
export const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;

/** The longest tool name allowed (providers allow 64; MCP clients prefix the server name). */
export const MAX_TOOL_NAME_LENGTH = 48;

/**
 * The PascalCase form of a plugin id, as used in `create<Name>Plugin`.
 *
 * @example
 * pascalCase("private-repo") // "PrivateRepo"
 */
export const pascalCase = (id: string): string =>
  id
    .split("-")
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

/**
 * The factory every plugin index exports.
 *
 * @example
 * factoryName("fda") // "createFdaPlugin"
 */
export const factoryName = (id: string): string => `create${pascalCase(id)}Plugin`;

/**
 * The prefix every tool name of a plugin starts with: the id with `-` turned into `_`, then `_`.
 *
 * @example
 * toolPrefix("private-repo") // "private_repo_"
 */
export const toolPrefix = (id: string): string => `${id.replaceAll("-", "_")}_`;

/**
 * The file (under `src/tools/`) that holds a tool: its name without the plugin prefix, in kebab case.
 *
 * @example
 * toolFile("fda", "fda_search_drugs") // "src/tools/search-drugs.ts"
 */
export const toolFile = (id: string, toolName: string): string => {
  const prefix = toolPrefix(id);
  const stem = toolName.startsWith(prefix) ? toolName.slice(prefix.length) : toolName;
  return `src/tools/${stem.replaceAll("_", "-")}.ts`;
};

/**
 * The plugin id a package name declares: `@quiver/plugin-<id>` (first party), `quiver-plugin-<id>` or
 * `@scope/quiver-plugin-<id>` (third party); undefined for any other name.
 *
 * @example
 * pluginIdOfPackage("@acme/quiver-plugin-weather") // "weather"
 */
export const pluginIdOfPackage = (name: string): string | undefined =>
  /^(?:@quiver\/plugin-|(?:@[a-z0-9][a-z0-9._~-]*\/)?quiver-plugin-)([a-z0-9][a-z0-9-]*)$/.exec(name)?.[1];
