import { type AnyPlugin, resolvePluginConfig } from "@quiver/core";

/**
 * Why the plugin cannot start with this environment, in one line naming the variables to set; or
 * undefined when its settings parse. The message comes from core's `resolvePluginConfig`, which never
 * prints a secret's value.
 *
 * @example
 * settingsProblem(perplexityPlugin, {}) // 'Plugin "perplexity" is not configured: PERPLEXITY_API_KEY is not set. Set PERPLEXITY_API_KEY in ...'
 */
export const settingsProblem = (
  plugin: AnyPlugin,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined => {
  const result = resolvePluginConfig(plugin, {}, env);
  if (result.ok) return undefined;
  const where =
    result.missing.length > 0
      ? ` Set ${result.missing.join(", ")} in the "env" of this server in your MCP client's configuration (or the shell that starts it).`
      : "";
  return `${result.message}${where}`;
};
