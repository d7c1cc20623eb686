import { checkConfigModule } from "./check-config-module.js";
import { checkIndexExports } from "./check-index-exports.js";
import { checkManifest } from "./check-manifest.js";
import { checkPackageName } from "./check-package-name.js";
import { checkReadme } from "./check-readme.js";
import { checkReleaseFiles } from "./check-release-files.js";
import { checkSrcLayout } from "./check-src-layout.js";
import { checkToolNames } from "./check-tool-names.js";
import type { PluginPackage } from "./types.js";

/** The checks `describePluginPackage` runs, by name; each returns what to change (empty when fine). */
export const PACKAGE_CHECKS = {
  "package.json: name, version, module type, keyword and quiver.plugin marker": (p: PluginPackage) => [
    ...(p.plugin ? checkPackageName(p.pkg, p.plugin.id) : []),
    ...checkManifest(p.pkg),
  ],
  "src/index.ts: default plugin with package.json's version, create<Name>Plugin": (p: PluginPackage) =>
    p.index.ok
      ? checkIndexExports(p.index.module, p.pkg)
      : [`${p.index.error}: the package entry is src/index.ts.`],
  "tool names: <plugin_id>_<verb>[_<object>], snake_case, at most 48 characters": (p: PluginPackage) =>
    p.plugin ? checkToolNames(p.plugin) : [],
  "src layout: src/config.ts, one src/tools/<name>.ts per tool": (p: PluginPackage) =>
    p.plugin ? checkSrcLayout(p.files, p.plugin) : [],
  "src/config.ts: config type z.output<typeof schema>": (p: PluginPackage) =>
    p.plugin ? checkConfigModule(p.configSource, p.plugin) : [],
  "README: present and naming every tool": (p: PluginPackage) =>
    checkReadme(p.readme, p.plugin ?? { tools: [] }),
  "README sections, src/internal/ not exported, CHANGELOG once released": (p: PluginPackage) =>
    checkReleaseFiles(p.pkg, p.files, p.readme),
} as const satisfies Record<string, (p: PluginPackage) => string[]>;

/**
 * Runs every package check on a read package and returns all that must change (empty when the package
 * has the contract's shape). Without a plugin (no default export and none given) the tool checks are
 * skipped and the index check says why.
 *
 * @example
 * expect(checkPluginPackage(await readPluginPackage("packages/plugins/fda"))).toEqual([])
 */
export const checkPluginPackage = (p: PluginPackage): string[] =>
  Object.values(PACKAGE_CHECKS).flatMap((check) => check(p));
