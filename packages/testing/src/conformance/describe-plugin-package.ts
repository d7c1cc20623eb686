import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type AnyPlugin, isPlugin } from "@quiver/core";
import { describe, expect, it } from "vitest";

type Json = Record<string, any>;

/** "private-repo" → "PrivateRepo". */
const pascal = (id: string): string =>
  id
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

/** The lines of the markdown section under a `## title` heading (up to the next `## `). */
const section = (readme: string, title: RegExp): string | undefined => {
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => /^##\s/.test(l) && title.test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
};

/**
 * The shared package-shape check for a plugin package (CONTRIBUTING's "add a plugin" checklist):
 * package.json (name `@quiver/plugin-<folder>`, keyword `quiver-plugin`, `quiver.plugin` entry,
 * exports with `types` first, `@quiver/source` and `default`, `./internal/*` blocked, `sideEffects: false`,
 * engines, publishConfig, files), a README with install, usage, options table and every tool, and an
 * index whose default export is the plugin, whose `VERSION` matches package.json and which exports
 * `create<Name>Plugin`. It imports the `@quiver/source` entry, so run it under vitest.
 *
 * Call it once in the plugin's main test file, beside `describePluginConformance`.
 *
 * @example
 * describePluginPackage(new URL("..", import.meta.url));
 */
export const describePluginPackage = (packageDir: string | URL): void => {
  const dir = typeof packageDir === "string" ? resolve(packageDir) : fileURLToPath(packageDir);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Json;
  const id = basename(dir);
  const factory = `create${pascal(id)}Plugin`;
  const entry = (pkg.exports?.["."] ?? {}) as Json;
  let loaded: Promise<Json> | undefined;
  const load = (): Promise<Json> => {
    const source = pathToFileURL(join(dir, entry["@quiver/source"] ?? "src/index.ts")).href;
    loaded ??= import(/* @vite-ignore */ source) as Promise<Json>;
    return loaded;
  };

  describe(`package shape: ${pkg.name}`, () => {
    it("package.json declares a Quiver plugin: name, keyword, quiver.plugin entry, ESM without side effects", () => {
      expect(pkg.name).toBe(`@quiver/plugin-${id}`);
      expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(pkg.keywords).toContain("quiver-plugin");
      expect(pkg.quiver).toEqual({ plugin: "./dist/index.js" });
      expect(pkg.type).toBe("module");
      expect(pkg.sideEffects).toBe(false);
    });

    it('exports: types first, then "@quiver/source" and default; package.json; internals blocked', () => {
      expect(Object.keys(entry)).toEqual(["types", "@quiver/source", "default"]);
      expect(entry).toEqual({
        types: "./dist/index.d.ts",
        "@quiver/source": "./src/index.ts",
        default: pkg.quiver?.plugin,
      });
      expect(existsSync(join(dir, entry["@quiver/source"]))).toBe(true);
      expect(pkg.exports["./package.json"]).toBe("./package.json");
      expect(pkg.exports["./internal/*"]).toBeNull();
    });

    it("publishes well: files, engines.node, public access, build and typecheck scripts", () => {
      expect(pkg.files).toEqual(expect.arrayContaining(["dist", "README.md"]));
      expect(pkg.engines?.node).toMatch(/^>=\s*\d+/);
      expect(pkg.publishConfig).toMatchObject({ access: "public" });
      expect(pkg.scripts).toMatchObject({
        build: "tsc -p tsconfig.build.json",
        typecheck: "tsc -p tsconfig.json --noEmit",
      });
      // VERSIONING.md: core is a peer (one core per host) with the rule's range `>=M.N.0 <M+1.0.0`.
      expect(pkg.dependencies?.["@quiver/core"]).toBeUndefined();
      expect(pkg.peerDependencies?.["@quiver/core"]).toMatch(/^>=(\d+)\.\d+\.0 <\d+\.0\.0$/);
    });

    it(`index: the default export is the plugin, VERSION matches package.json, ${factory} is exported`, async () => {
      const mod = await load();
      const plugin = mod.default as AnyPlugin;
      expect(isPlugin(plugin)).toBe(true);
      expect(plugin.id).toBe(id);
      expect(plugin.version).toBe(pkg.version);
      expect(mod.VERSION).toBe(pkg.version);
      expect(typeof mod[factory], factory).toBe("function");
      const made = mod[factory]() as AnyPlugin;
      expect(isPlugin(made)).toBe(true);
      expect(made.id).toBe(id);
    });

    it("README: title, install, usage, an options table with env vars, and every tool", async () => {
      const path = join(dir, "README.md");
      expect(existsSync(path), "README.md").toBe(true);
      const readme = readFileSync(path, "utf8");
      expect(readme.split("\n")[0]).toBe(`# ${pkg.name}`);
      expect(section(readme, /install/i), "## Install").toContain(pkg.name);
      expect(section(readme, /usage/i), "## Usage").toBeDefined();
      expect(section(readme, /options/i), "## Options").toMatch(
        /^\|\s*option\s*\|\s*env var\s*\|\s*default\s*\|/im,
      );
      const tools = section(readme, /tools/i);
      expect(tools, "## Tools").toBeDefined();
      const mod = await load();
      for (const tool of (mod.default as AnyPlugin).tools)
        expect(tools, tool.name).toContain(`\`${tool.name}`);
    });
  });
};
