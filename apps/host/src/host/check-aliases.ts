import { ConfigError } from "../config/config-error.js";
import type { LoadedPlugin } from "../discovery/types.js";

/**
 * Refuses aliases that take the name of a tool an enabled plugin has (the config's `aliases` must
 * only add names), as a `ConfigError` naming each.
 *
 * @example
 * checkAliasClashes({ search_web: "web_search" }, plugins) // throws when a plugin has a tool "search_web"
 */
export const checkAliasClashes = (
  aliases: Readonly<Record<string, string>>,
  plugins: ReadonlyArray<LoadedPlugin>,
): void => {
  const problems = plugins.flatMap(({ plugin }) =>
    plugin.tools
      .filter((t: { name: string }) => Object.hasOwn(aliases, t.name))
      .map(
        (t: { name: string }) =>
          `aliases.${t.name}: "${t.name}" is a tool of plugin "${plugin.id}"; an alias must be a new name (remove or rename it).`,
      ),
  );
  if (problems.length > 0) throw new ConfigError(problems);
};
