import { type AnyPlugin, isPlugin } from "@quiver/core";
import { factoryName, pascalCase } from "./naming.js";
import type { PackageJson } from "./types.js";

/**
 * Checks what `src/index.ts` exports: a default export that is the plugin, with package.json's
 * version, `create<Name>Plugin` returning a plugin with the same id and, when `source` (the file's
 * text) is given, the type `<Name>PluginOptions`. `module` is the imported index. Returns what to change.
 *
 * @example
 * checkIndexExports(await import("@quiver/plugin-fda"), pkg, readFileSync("src/index.ts", "utf8"))
 */
export const checkIndexExports = (
  module: Readonly<Record<string, unknown>>,
  pkg: PackageJson,
  source?: string,
): string[] => {
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
  if (id !== undefined && source !== undefined && !exportsType(source, `${pascalCase(id)}PluginOptions`))
    problems.push(
      `src/index.ts does not export the type ${pascalCase(id)}PluginOptions: export the options ${factoryName(id)} takes (\`PluginOptions<typeof <schema>>\`).`,
    );
  if (isPlugin(plugin) && plugin.version !== pkg.version)
    problems.push(
      `the plugin's version is ${JSON.stringify((plugin as AnyPlugin).version)} but package.json "version" is ${JSON.stringify(pkg.version)}: pass \`version: pkg.version\` to definePlugin, with \`import pkg from "../package.json" with { type: "json" };\`.`,
    );
  return problems;
};

/** Whether TypeScript source exports a type or interface named `name` (declared or re-exported). */
const exportsType = (source: string, name: string): boolean =>
  new RegExp(`export\\s+(?:declare\\s+)?(?:type|interface)\\s+${name}\\b`).test(source) ||
  new RegExp(`export\\s+(?:type\\s+)?\\{[^}]*\\b${name}\\b[^}]*\\}`).test(source);
