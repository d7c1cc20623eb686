// The package-shape check, run for real on fixture packages (a good first-party and a good third-party
// one, called each way the options can be given) and on broken ones, whose messages must say what to change.
import { fileURLToPath } from "node:url";
import { definePlugin, defineTool } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describePluginPackage } from "../../src/conformance/describe-plugin-package.js";
import { checkConfigModule } from "../../src/conformance/package/check-config-module.js";
import { checkIndexExports } from "../../src/conformance/package/check-index-exports.js";
import { checkManifest } from "../../src/conformance/package/check-manifest.js";
import { checkPackageName } from "../../src/conformance/package/check-package-name.js";
import { checkPluginPackage } from "../../src/conformance/package/check-plugin-package.js";
import { checkReadme } from "../../src/conformance/package/check-readme.js";
import { checkReleaseFiles } from "../../src/conformance/package/check-release-files.js";
import { checkSrcLayout } from "../../src/conformance/package/check-src-layout.js";
import { checkToolNames } from "../../src/conformance/package/check-tool-names.js";
import {
  factoryName,
  pluginIdOfPackage,
  toolFile,
  toolPrefix,
} from "../../src/conformance/package/naming.js";
import { packageDirOf, readPluginPackage } from "../../src/conformance/package/read-plugin-package.js";

const fixture = (name: string) => new URL(`../fixtures/packages/${name}/`, import.meta.url);

// The good fixtures, with the options given each way.
describePluginPackage(fixture("plugin-greeter"));
describePluginPackage(fileURLToPath(fixture("plugin-greeter")));
describePluginPackage(new URL("src/index.ts", fixture("quiver-plugin-weather")).href);
describePluginPackage({
  packageDir: fixture("quiver-plugin-weather"),
  plugin: (await import("../fixtures/packages/quiver-plugin-weather/src/index.js")).createWeatherPlugin(),
});
describePluginPackage({
  packageDir: fixture("quiver-plugin-weather"),
  index: () => import("../fixtures/packages/quiver-plugin-weather/src/index.js"),
});

const problemsOf = async (name: string) => checkPluginPackage(await readPluginPackage(fixture(name)));

describe("broken packages get messages that say what to change", () => {
  it("a tool without its file under src/tools/", async () => {
    expect(await problemsOf("broken-tool-file-missing")).toEqual([
      'src/tools/get-sunrise.ts is missing: put tool "almanac_get_sunrise" in its own file src/tools/get-sunrise.ts.',
    ]);
  });

  it("a tool name that is not snake_case", async () => {
    expect(await problemsOf("broken-tool-name")).toEqual([
      'tool "tides_getHighWater" is not snake_case <plugin_id>_<verb>[_<object>]: use lower-case words joined by "_", such as "tides_search".',
    ]);
  });

  it("a tool name without the plugin prefix", async () => {
    expect(await problemsOf("broken-name-prefix")).toEqual([
      'tool "lunar_get_phase" must start with the plugin prefix "moon_": rename it, e.g. "moon_lunar_get_phase".',
    ]);
  });

  it("an index without a default export", async () => {
    expect(await problemsOf("broken-no-default")).toEqual([
      "src/index.ts has no default export that is a plugin: add `export default create<Name>Plugin();` (a definePlugin result).",
    ]);
  });

  it("an index that does not import says so", async () => {
    const read = await readPluginPackage(fixture("quiver-plugin-weather"), undefined, () =>
      Promise.reject(new Error("Cannot find module './tools/get-forecast.js'")),
    );
    expect(checkPluginPackage(read)).toEqual([
      "importing src/index.ts failed (Error: Cannot find module './tools/get-forecast.js'); fix the import, or pass `index: () => import(\"../src/index.js\")` to describePluginPackage: the package entry is src/index.ts.",
    ]);
  });

  it("the good fixtures have nothing to change", async () => {
    expect(await problemsOf("plugin-greeter")).toEqual([]);
    expect(await problemsOf("quiver-plugin-weather")).toEqual([]);
  });
});

describe("naming helpers", () => {
  it("derive the factory, the tool prefix, the tool file and the id of a package name", () => {
    expect(factoryName("private-repo")).toBe("createPrivateRepoPlugin");
    expect(factoryName("context7")).toBe("createContext7Plugin");
    expect(toolPrefix("private-repo")).toBe("private_repo_");
    expect(toolFile("fda", "fda_search_drugs")).toBe("src/tools/search-drugs.ts");
    expect(toolFile("private-repo", "private_repo_list_collections")).toBe("src/tools/list-collections.ts");
    expect(pluginIdOfPackage("@quiver/plugin-fda")).toBe("fda");
    expect(pluginIdOfPackage("quiver-plugin-weather")).toBe("weather");
    expect(pluginIdOfPackage("@acme/quiver-plugin-private-repo")).toBe("private-repo");
    expect(pluginIdOfPackage("@acme/plugin-weather")).toBeUndefined();
    expect(pluginIdOfPackage("weather")).toBeUndefined();
  });

  it("packageDirOf walks up from a file to the package folder", () => {
    expect(packageDirOf(new URL("src/tools/get-forecast.ts", fixture("quiver-plugin-weather")))).toBe(
      fileURLToPath(fixture("quiver-plugin-weather")).replace(/\/$/, ""),
    );
  });
});

describe("each check on its own", () => {
  const tool = (name: string) =>
    defineTool({
      name,
      description: "A tool for the check's unit tests, never called.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({}),
      run: () => ({}),
    });

  it("checkPackageName accepts the three forms and names the one to use", () => {
    for (const name of ["@quiver/plugin-weather", "quiver-plugin-weather", "@acme/quiver-plugin-weather"])
      expect(checkPackageName({ name }, "weather")).toEqual([]);
    expect(checkPackageName({ name: "weather-tools" }, "weather")).toEqual([
      'package.json "name" is "weather-tools": name the package "quiver-plugin-weather" (or "@your-scope/quiver-plugin-weather"; "@quiver/plugin-weather" in the Quiver repository).',
    ]);
    expect(checkPackageName({ name: "quiver-plugin-forecast" }, "weather")[0]).toMatch(
      /names plugin "forecast" but the plugin's id is "weather": rename the package "quiver-plugin-weather"/,
    );
  });

  it("checkManifest asks for the quiver.plugin marker, the keyword, ESM, a semver version and core as a peer", () => {
    expect(
      checkManifest({
        version: "1.0.0",
        type: "module",
        keywords: ["quiver-plugin"],
        quiver: { plugin: "./dist/index.js" },
        peerDependencies: { "@quiver/core": ">=0.1.0 <1.0.0" },
      }),
    ).toEqual([]);
    expect(
      checkManifest({ version: "1", quiver: { plugin: 1 }, dependencies: { "@quiver/core": "^0.1.0" } }),
    ).toEqual([
      'package.json "version" is "1": give it a semver version such as "0.1.0".',
      'package.json "type" must be "module" (the plugin is an ES module).',
      'package.json "keywords" must contain "quiver-plugin" (registries list plugins by it).',
      'package.json needs the plugin marker "quiver": { "plugin": "./dist/index.js" } (a relative path to the built index), got {"plugin":1}: the host discovers plugins by it.',
      'package.json lists "@quiver/core" in "dependencies": move it to "peerDependencies" (and "devDependencies" for your tests), so the host and the plugin share one core.',
      'package.json needs "peerDependencies": { "@quiver/core": ">=0.1.0 <1.0.0" } (the range VERSIONING.md gives for the core you build against).',
    ]);
  });

  it("checkToolNames enforces the prefix, snake_case, the 48-character limit and unique names", () => {
    const long = `private_repo_${"x".repeat(40)}`;
    expect(
      checkToolNames({
        id: "private-repo",
        tools: [tool("private_repo_search"), tool("private_repo_search")],
      }),
    ).toEqual(['tool "private_repo_search" is defined twice: give each tool its own name.']);
    expect(checkToolNames({ id: "private-repo", tools: [tool(long)] })).toEqual([
      `tool "${long}" has 53 characters: shorten it to at most 48 (MCP clients prefix the server name).`,
    ]);
    expect(checkToolNames({ id: "alphafold", tools: [tool("predict_structure")] })).toEqual([
      'tool "predict_structure" must start with the plugin prefix "alphafold_": rename it, e.g. "alphafold_predict_structure".',
    ]);
  });

  it("checkSrcLayout wants src/config.ts with a config schema and only tool files under src/tools/", () => {
    const plugin = definePlugin({
      specificationVersion: "v1",
      id: "fda",
      version: "1.0.0",
      config: z.object({ apiKey: z.string().optional() }),
      tools: [tool("fda_search_drugs")],
    });
    expect(
      checkSrcLayout(
        ["src/index.ts", "src/config.ts", "src/tools/search-drugs.ts", "src/tools/search-drugs.test.ts"],
        plugin,
      ),
    ).toEqual([]);
    expect(checkSrcLayout(["src/tools/search-drugs.ts", "src/tools/shared.ts"], plugin)).toEqual([
      "src/index.ts is missing: the package entry exports create<Name>Plugin and the default plugin.",
      "src/config.ts is missing: the plugin has a config schema, define it in src/config.ts.",
      "src/tools/shared.ts is not a tool file: src/tools/ holds one file per tool (src/tools/search-drugs.ts); move shared code to src/internal/.",
    ]);
  });

  it("checkIndexExports compares the plugin's version with package.json and wants the factory", () => {
    const plugin = definePlugin({ specificationVersion: "v1", id: "weather", version: "0.2.0", tools: [] });
    expect(checkIndexExports({ default: plugin }, { version: "0.3.0" })).toEqual([
      "src/index.ts does not export createWeatherPlugin: add `export const createWeatherPlugin = (options = {}) => definePlugin({ ..., defaults: options })`.",
      'the plugin\'s version is "0.2.0" but package.json "version" is "0.3.0": pass `version: pkg.version` to definePlugin, with `import pkg from "../package.json" with { type: "json" };`.',
    ]);
    expect(
      checkIndexExports({ default: plugin, createWeatherPlugin: () => plugin }, { version: "0.2.0" }),
    ).toEqual([]);
  });

  it("checkReadme wants a README naming every tool", () => {
    const plugin = { tools: [tool("weather_get_forecast"), tool("weather_get_alerts")] };
    expect(checkReadme(undefined, plugin)).toEqual([
      "README.md is missing: add one with install, usage, options and every tool.",
    ]);
    expect(checkReadme("# w\n\n`weather_get_forecast`", plugin)).toEqual([
      'README.md does not mention tool "weather_get_alerts": list it (with what it does) in the README.',
    ]);
  });

  it("checkConfigModule asks for the config type as the schema's output", () => {
    const plugin = { id: "private-repo", config: z.object({ root: z.string() }) };
    const good = [
      "export const repoConfigSchema = z.object({ root: z.string() });",
      "export type PrivateRepoConfig = z.output<typeof repoConfigSchema>;",
    ].join("\n");
    expect(checkConfigModule(good, plugin)).toEqual([]);
    expect(
      checkConfigModule(
        'export interface PrivateRepoConfig { readonly root: string }\nexport const REPO_ENV = { root: "REPO_ROOT" };',
        plugin,
      ),
    ).toEqual([
      "src/config.ts does not declare `export type PrivateRepoConfig = z.output<typeof <schema>>`: derive the config type from the schema instead of writing it by hand.",
    ]);
    // No src/config.ts: the layout check reports it.
    expect(checkConfigModule(undefined, plugin)).toEqual([]);
  });

  it("checkReleaseFiles asks for the README sections in order, internal/ mapped to null, a CHANGELOG once released", () => {
    const readme = "# p\n\n## Install\n\n## Usage\n\n## Options\n\n## Tools\n\n## Errors\n";
    const pkg = {
      version: "0.0.0",
      exports: { "./internal/*": null },
      publishConfig: { exports: { "./internal/*": null } },
    };
    expect(checkReleaseFiles(pkg, ["src/internal/a.ts"], readme)).toEqual([]);
    expect(checkReleaseFiles({ ...pkg, version: "0.2.0" }, ["CHANGELOG.md"], readme)).toEqual([]);
    expect(
      checkReleaseFiles(
        {
          version: "0.2.0",
          exports: {},
          publishConfig: { exports: { "./internal/*": "./dist/internal/*.js" } },
        },
        ["src/internal/a.ts"],
        "# p\n\n## Usage\n\n## Tools\n",
      ),
    ).toEqual([
      'README.md lacks the sections "## Install", "## Options": every plugin README has ## Install, ## Usage, ## Options, ## Tools.',
      'package.json exports must map "./internal/*" to null: src/internal/ is the package\'s own, never imported from outside.',
      'package.json publishConfig.exports must map "./internal/*" to null: src/internal/ is the package\'s own, never imported from outside.',
      "CHANGELOG.md is missing: version 0.2.0 is released, and changesets writes each release's notes there (`pnpm changeset version`).",
    ]);
    expect(checkReleaseFiles(pkg, [], "## Tools\n## Usage\n## Install\n## Options\n")).toEqual([
      "README.md: put the sections in the order Install, Usage, Options, Tools.",
    ]);
  });
});
