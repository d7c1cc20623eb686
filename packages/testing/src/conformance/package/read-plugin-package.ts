import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type AnyPlugin, isPlugin } from "@quiver/core";
import { vi } from "vitest";
import type { PackageJson, PluginPackage } from "./types.js";

const SKIP = new Set(["node_modules", "dist", "coverage"]);

/**
 * The package folder for a path or URL: a folder or any file inside the package (so `import.meta.url`
 * of a test works), walking up to the nearest package.json.
 *
 * @example
 * packageDirOf(import.meta.url) // "/repo/packages/plugins/fda"
 */
export const packageDirOf = (location: string | URL): string => {
  const path =
    location instanceof URL || location.startsWith("file:") ? fileURLToPath(location) : resolve(location);
  let dir = existsSync(path) && statSync(path).isFile() ? dirname(path) : path;
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json found in ${path} or above it`);
    dir = parent;
  }
};

/** Every file under `dir`, relative with `/`, without node_modules, dist and dot folders. */
export const listPackageFiles = (dir: string, prefix = ""): string[] =>
  readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory())
      return SKIP.has(entry.name) || entry.name.startsWith(".") ? [] : listPackageFiles(dir, rel);
    return [rel];
  });

/**
 * Reads what the package checks need: package.json, the file list, the README and the module
 * `src/index.ts` exports (imported from source through vitest's module runner, so run it under vitest).
 * `plugin` overrides the index's default export as the plugin to check; `loadIndex` imports the index
 * instead (e.g. `() => import("../src/index.js")` from the test file).
 *
 * @example
 * const pp = await readPluginPackage(new URL("..", import.meta.url));
 */
export const readPluginPackage = async (
  location: string | URL,
  plugin?: AnyPlugin,
  loadIndex?: () => Promise<Readonly<Record<string, unknown>>>,
): Promise<PluginPackage> => {
  const dir = packageDirOf(location);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
  const files = listPackageFiles(dir);
  const readmeFile = files.find((f) => /^readme\.md$/i.test(f));
  const readme = readmeFile ? readFileSync(join(dir, readmeFile), "utf8") : undefined;
  let index: PluginPackage["index"];
  if (!files.includes("src/index.ts")) index = { ok: false, error: "src/index.ts is missing" };
  else {
    try {
      // Through vitest's module runner (which transforms TypeScript) even when this kit is an external
      // dependency installed from a registry, where a native import() of src/index.ts fails.
      const module = loadIndex
        ? await loadIndex()
        : await vi.importActual<Record<string, unknown>>(join(dir, "src", "index.ts"));
      index = { ok: true, module };
    } catch (error) {
      index = {
        ok: false,
        error: `importing src/index.ts failed (${String(error)}); fix the import, or pass \`index: () => import("../src/index.js")\` to describePluginPackage`,
      };
    }
  }
  const fromIndex = index.ok && isPlugin(index.module.default) ? index.module.default : undefined;
  const indexSource = files.includes("src/index.ts")
    ? readFileSync(join(dir, "src/index.ts"), "utf8")
    : undefined;
  const configSource = files.includes("src/config.ts")
    ? readFileSync(join(dir, "src/config.ts"), "utf8")
    : undefined;
  return { dir, pkg, files, readme, indexSource, configSource, index, plugin: plugin ?? fromIndex };
};
