import { type AnyPlugin, isPlugin } from "@quiver/core";
import { factoryName } from "./naming.js";
import type { PackageJson } from "./types.js";

/**
 * Checks what `src/index.ts` exports: a default export that is the plugin, `create<Name>Plugin`
 * returning a plugin with the same id, and `VERSION` equal to package.json's version (the plugin's
 * `version` too). `module` is the imported index. Returns what to change.
 *
 * @example
 * checkIndexExports(await import("./src/index.ts"), pkg)
 */
export const checkIndexExports = (module: Readonly<Record<string, unknown>>, pkg: PackageJson): string[] => {
  const problems: string[] = [];
  const plugin = module.default;
  if (!isPlugin(plugin)) {
    problems.push(
      "src/index.ts has no default export that is a plugin: add `export default create<Name>Plugin();` (a definePlugin result).",
    );
  }
  const id = isPlugin(plugin) ? plugin.id : undefined;
  if (id !== undefined) {
    const factory = factoryName(id);
    const create = module[factory];
    if (typeof create !== "function") {
      problems.push(
        `src/index.ts does not export ${factory}: add \`export const ${factory} = (options = {}) => definePlugin({ ..., defaults: options })\`.`,
      );
    } else {
      let made: unknown;
      try {
        made = (create as () => unknown)();
      } catch (error) {
        problems.push(`${factory}() threw ${String(error)}: it must work without options.`);
      }
      if (made !== undefined && (!isPlugin(made) || made.id !== id))
        problems.push(`${factory}() must return the plugin "${id}" (a definePlugin result).`);
    }
  }
  if (module.VERSION === undefined)
    problems.push(`src/index.ts does not export VERSION: add \`export { VERSION } from "./version.js";\`.`);
  else if (module.VERSION !== pkg.version)
    problems.push(
      `VERSION is ${JSON.stringify(module.VERSION)} but package.json "version" is ${JSON.stringify(pkg.version)}: make them equal (read it from package.json).`,
    );
  if (isPlugin(plugin) && plugin.version !== pkg.version)
    problems.push(
      `the plugin's version is ${JSON.stringify((plugin as AnyPlugin).version)} but package.json "version" is ${JSON.stringify(pkg.version)}: pass VERSION to definePlugin.`,
    );
  return problems;
};
