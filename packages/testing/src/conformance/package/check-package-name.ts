import { pluginIdOfPackage } from "./naming.js";
import type { PackageJson } from "./types.js";

/**
 * Checks the package name against the plugin id: `@quiver/plugin-<id>` for first-party plugins,
 * `quiver-plugin-<id>` or `@scope/quiver-plugin-<id>` for everyone else. Returns what to change (empty
 * when the name is right).
 *
 * @example
 * checkPackageName({ name: "weather" }, "weather") // ['package.json "name" is "weather": name it ...']
 */
export const checkPackageName = (pkg: PackageJson, pluginId: string): string[] => {
  const name = typeof pkg.name === "string" ? pkg.name : "";
  const want = `"quiver-plugin-${pluginId}" (or "@your-scope/quiver-plugin-${pluginId}"; "@quiver/plugin-${pluginId}" in the Quiver repository)`;
  const declared = pluginIdOfPackage(name);
  if (declared === undefined)
    return [`package.json "name" is ${JSON.stringify(name)}: name the package ${want}.`];
  if (declared !== pluginId)
    return [
      `package.json "name" ${JSON.stringify(name)} names plugin "${declared}" but the plugin's id is "${pluginId}": rename the package ${want} or change the id.`,
    ];
  return [];
};
