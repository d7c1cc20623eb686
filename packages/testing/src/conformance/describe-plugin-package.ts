import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnyPlugin } from "@quiver/core";
import { describe, it } from "vitest";
import { PACKAGE_CHECKS } from "./package/check-plugin-package.js";
import { packageDirOf, readPluginPackage } from "./package/read-plugin-package.js";
import type { PluginPackage } from "./package/types.js";

/** Where the package is and, optionally, which plugin to check (default: the index's default export). */
export interface PluginPackageOptions {
  /** The package folder, or any file in it (`import.meta.url` of a test works). */
  readonly packageDir: string | URL;
  /** The plugin to check instead of `src/index.ts`'s default export. */
  readonly plugin?: AnyPlugin;
  /**
   * Imports `src/index.ts` from the test file, e.g. `() => import("../src/index.js")` (default: the kit
   * imports `<packageDir>/src/index.ts` through vitest's module runner).
   */
  readonly index?: () => Promise<Readonly<Record<string, unknown>>>;
}

/**
 * The package-shape check of the plugin contract, for first-party (`@quiver/plugin-<id>`) and
 * third-party (`quiver-plugin-<id>`, `@scope/quiver-plugin-<id>`) plugins: package.json (name, version,
 * keyword, `quiver.plugin` marker), `src/index.ts` (default plugin, `create<Name>Plugin`,
 * `<Name>PluginOptions`, the plugin's version equal to package.json's), the tool naming rule, the `src` layout (`src/config.ts`, one `src/tools/<name>.ts`
 * per tool) and a README naming every tool. Each failure says what to change. It imports
 * `src/index.ts`, so run it under vitest.
 *
 * @example
 * describePluginPackage(import.meta.url);
 * describePluginPackage({ packageDir: new URL("..", import.meta.url), plugin: createWeatherPlugin() });
 * describePluginPackage({ packageDir: import.meta.url, index: () => import("@quiver/plugin-fda") });
 */
export const describePluginPackage = (options: string | URL | PluginPackageOptions): void => {
  const { packageDir, plugin, index }: PluginPackageOptions =
    typeof options === "string" || options instanceof URL ? { packageDir: options } : options;
  const dir = packageDirOf(packageDir);
  const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string };
  let read: Promise<PluginPackage> | undefined;
  const load = () => {
    read ??= readPluginPackage(dir, plugin, index);
    return read;
  };
  describe(`package shape: ${name ?? dir}`, () => {
    for (const [title, check] of Object.entries(PACKAGE_CHECKS)) {
      it(title, async () => {
        const problems = check(await load());
        if (problems.length > 0) throw new Error(`${problems.length} to change:\n- ${problems.join("\n- ")}`);
      });
    }
  });
};
