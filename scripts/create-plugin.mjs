#!/usr/bin/env node
// Writes a new plugin package in the canonical shape `describePluginPackage` checks:
//   pnpm create-plugin <id> [--tool <verb_object>] [--root <repository>]
// packages/plugins/<id>/ gets src/index.ts (create<Name>Plugin, <Name>PluginOptions derived from the
// schema, the default plugin), src/config.ts (the zod schema with each setting's environment
// variable, the `z.output<typeof schema>` config type),
// one src/tools/<tool>.ts, src/internal/ (never exported), a test running describePluginPackage and
// describePluginConformance against a local emulator, a README with the required sections, a
// package.json like the other plugins' and a changeset. Why by hand: the files are a few templates
// filled with names; a generator framework (plop, hygen) would add a dependency for string joins.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");

const usage = `Usage: pnpm create-plugin <id> [--tool <verb_object>] [--root <repository>]

  <id>      the plugin id: lower case, starting with a letter, words joined by "-" (demo-x)
  --tool    the first tool's name after the "<id>_" prefix, snake_case (default: get_item)
  --root    the repository to write into (default: this one); the package goes to packages/plugins/<id>/`;

/** `demo-x` → `DemoX`. */
const pascal = (id) =>
  id
    .split(/[-_]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
/** `demo-x` → `demo_x` (the tool prefix). */
const snake = (id) => id.replace(/-/g, "_");
/** `get_item` → `getItem`. */
const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

/** The files of a new plugin `id` with one tool `<id>_<tool>`, by package-relative path. */
export const pluginFiles = (id, tool, coreVersion) => {
  const Name = pascal(id);
  const prefix = snake(id);
  const ID = prefix.toUpperCase();
  const toolName = `${prefix}_${tool}`;
  const toolFile = tool.replace(/_/g, "-");
  const toolConst = camel(tool);
  const pkg = `@quiver/plugin-${id}`;
  return {
    "package.json": `${JSON.stringify(
      {
        name: pkg,
        version: "0.0.0",
        description: `Quiver plugin for ${Name}: one tool over its HTTP API.`,
        license: "MIT",
        repository: {
          type: "git",
          url: "git+https://github.com/quiver-tools/quiver.git",
          directory: `packages/plugins/${id}`,
        },
        homepage: `https://github.com/quiver-tools/quiver/tree/main/packages/plugins/${id}#readme`,
        bugs: { url: "https://github.com/quiver-tools/quiver/issues" },
        type: "module",
        sideEffects: false,
        engines: { node: ">=22.19" },
        keywords: ["quiver-plugin", id, "llm", "tools"],
        quiver: { plugin: "./dist/index.js" },
        exports: {
          ".": { types: "./dist/index.d.ts", "@quiver/source": "./src/index.ts", default: "./dist/index.js" },
          "./package.json": "./package.json",
          "./internal/*": null,
        },
        files: [
          "dist",
          "!dist/**/*.test.*",
          "src",
          "!src/**/*.test.*",
          "!src/**/*.test-helpers.*",
          "!src/**/__snapshots__",
          "README.md",
          "CHANGELOG.md",
          "LICENSE",
        ],
        publishConfig: {
          access: "public",
          exports: {
            ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
            "./package.json": "./package.json",
            "./internal/*": null,
          },
        },
        scripts: {
          build: "rolldown -c rolldown.config.mjs && tsc -p tsconfig.build.json --emitDeclarationOnly",
          typecheck: "tsc -p tsconfig.json --noEmit",
        },
        peerDependencies: { "@quiver/core": `>=${coreVersion} <1.0.0`, effect: "^4.1.0", zod: "^4.1.0" },
        devDependencies: {
          "@quiver/core": "workspace:*",
          "@quiver/testing": "workspace:^",
          "@types/node": "catalog:",
          effect: "catalog:",
          rolldown: "catalog:",
          typescript: "catalog:",
          vitest: "catalog:",
          zod: "catalog:",
        },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `{ "extends": "../../../tsconfig.base.json", "include": ["src", "test"] }\n`,
    "tsconfig.build.json": `${JSON.stringify(
      {
        extends: "../../../tsconfig.base.json",
        compilerOptions: { rootDir: "src", outDir: "dist" },
        include: ["src"],
        exclude: ["src/**/*.test.ts", "src/**/*.test-d.ts"],
      },
      null,
      2,
    )}\n`,
    "rolldown.config.mjs": `import { libraryConfig } from "../../../scripts/build/rolldown-library.mjs";

export default libraryConfig(import.meta.dirname);
`,
    "vitest.config.ts": `import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["@quiver/source"] },
  ssr: { resolve: { conditions: ["@quiver/source"] } },
  test: { name: "${pkg}" },
});
`,
    "src/config.ts": `import { secret, setting } from "@quiver/core";
import { z } from "zod";

/** The plugin's settings, each with its environment variable; the tools read them as \`ctx.config\`. */
export const ${prefix}ConfigSchema = z.object({
  apiKey: secret({ env: "${ID}_API_KEY" }).optional().describe("${Name} API key, when the API asks for one."),
  baseUrl: setting(z.url({ protocol: /^https?$/ }).default("https://api.example.org"), {
    env: "${ID}_BASE_URL",
  }).describe("Base URL of ${Name}'s API."),
});

/** The settings after parsing (the key as Redacted). */
export type ${Name}Config = z.output<typeof ${prefix}ConfigSchema>;
`,
    "src/internal/upstream.ts": `import type { HttpClient } from "@quiver/core";
import { z } from "zod";
import type { ${Name}Config } from "../config.js";

/** The upstream's answer for one item: anything else is an upstream error, never "no results". */
export const itemSchema = z.object({
  id: z.string().describe("The item's id."),
  name: z.string().describe("The item's name."),
});

/** Reads one item from \`GET {baseUrl}/items/{id}\`, with the key as its Bearer token when there is one. */
export const fetchItem = (http: HttpClient, config: ${Name}Config, id: string, signal: AbortSignal) =>
  http.json({
    baseUrl: config.baseUrl,
    url: \`/items/\${encodeURIComponent(id)}\`,
    bearer: config.apiKey,
    schema: itemSchema,
    signal,
  });
`,
    [`src/tools/${toolFile}.ts`]: `import { defineToolWith, outcome } from "@quiver/core";
import { z } from "zod";
import type { ${Name}Config } from "../config.js";
import { fetchItem, itemSchema } from "../internal/upstream.js";

/**
 * \`${toolName}\`: one item of ${Name} by its id.
 *
 * @example
 * await catalog.call("${toolName}", { id: "42" })
 */
export const ${toolConst} = defineToolWith<${Name}Config>()({
  name: "${toolName}",
  title: "${Name} item",
  description: "Reads one ${Name} item by its id and returns its name. Use when the user names an item id.",
  category: "scientific_database",
  input: z.object({ id: z.string().trim().min(1).max(100).describe("The item's id.") }),
  output: itemSchema,
  examples: [{ input: { id: "42" } }],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: { timeout: "30s", retry: { times: 2 }, cache: { ttl: "1h" }, maxOutputChars: 20_000 },
  run: async ({ id }, ctx) =>
    outcome(await fetchItem(ctx.http, ctx.config, id, ctx.signal), {
      message: \`Item \${id} of ${Name}.\`,
      source: new URL(ctx.config.baseUrl).origin,
    }),
});
`,
    "src/index.ts": `import { definePlugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { ${prefix}ConfigSchema } from "./config.js";
import { ${toolConst} } from "./tools/${toolFile}.js";

export type { ${Name}Config } from "./config.js";

/** Options of {@link create${Name}Plugin}: defaults for the settings (the environment and the host's options win). */
export type ${Name}PluginOptions = PluginOptions<typeof ${prefix}ConfigSchema>;

/**
 * Creates the ${Name} plugin: \`${toolName}\`.
 *
 * @example
 * const catalog = createCatalog();
 * catalog.register(create${Name}Plugin({ baseUrl: "https://api.example.org" }));
 * const result = await catalog.call("${toolName}", { id: "42" });
 */
export const create${Name}Plugin = (options: ${Name}PluginOptions = {}) =>
  definePlugin({
    id: "${id}",
    version: pkg.version,
    description: "${Name}: one tool over its HTTP API.",
    config: ${prefix}ConfigSchema,
    defaults: options,
    tools: [${toolConst}],
  });

/**
 * The ${Name} plugin with default settings. Hosts import it.
 *
 * @example
 * import ${camel(prefix)} from "${pkg}";
 * catalog.register(${camel(prefix)});
 */
export default create${Name}Plugin();
`,
    [`test/${id}.test.ts`]: `import { closedUrl, describePluginConformance, describePluginPackage, startEmulator } from "@quiver/testing";
import { afterAll } from "vitest";
import ${camel(prefix)} from "../src/index.js";

// The upstream, on 127.0.0.1: answers every item it is asked for.
const up = await startEmulator();
up.route("GET", /^\\/items\\/([^/]+)$/, (req) => ({ json: { id: req.match?.[1], name: "An item" } }));
afterAll(() => up.close());

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(${camel(prefix)}, {
  options: () => ({ baseUrl: up.url }),
  downOptions: async () => ({ baseUrl: await closedUrl() }),
});
`,
    "README.md": `# ${pkg}

${Name} for Quiver: one tool over its HTTP API.

## Install

\`\`\`sh
pnpm add ${pkg} @quiver/core
\`\`\`

## Usage

\`\`\`ts
import { createCatalog } from "@quiver/core";
import { create${Name}Plugin } from "${pkg}";

const catalog = createCatalog();
catalog.register(create${Name}Plugin());
const result = await catalog.call("${toolName}", { id: "42" });
\`\`\`

## Options

| Option | Environment | Default | What it does |
| --- | --- | --- | --- |
| \`apiKey\` | \`${ID}_API_KEY\` | none | The API key, sent as a Bearer token (kept Redacted). |
| \`baseUrl\` | \`${ID}_BASE_URL\` | \`https://api.example.org\` | Base URL of the API. |

## Tools

- \`${toolName}\`: one item by its id (\`GET /items/{id}\`), cached for an hour.

## Errors

Every call returns the envelope: an unreachable API is \`unavailable\`, an answer that is not an item
is an upstream error, never an empty result.
`,
    LICENSE: readFileSync(join(repo, "LICENSE"), "utf8"),
  };
};

const main = () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      tool: { type: "string", default: "get_item" },
      root: { type: "string" },
      help: { type: "boolean" },
    },
  });
  const [id] = positionals;
  if (values.help || !id) {
    (values.help ? console.log : console.error)(usage);
    process.exit(values.help ? 0 : 2);
  }
  if (!/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(id)) {
    console.error(`create-plugin: "${id}" is not a plugin id (lower case, words joined by "-").\n\n${usage}`);
    process.exit(2);
  }
  if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(values.tool)) {
    console.error(`create-plugin: --tool "${values.tool}" is not snake_case (verb_object).`);
    process.exit(2);
  }
  const root = values.root ?? repo;
  const dir = join(root, "packages", "plugins", id);
  if (existsSync(dir)) {
    console.error(`create-plugin: ${dir} exists already; pick another id.`);
    process.exit(1);
  }
  const coreVersion = JSON.parse(
    readFileSync(join(repo, "packages", "core", "package.json"), "utf8"),
  ).version;
  for (const [path, text] of Object.entries(pluginFiles(id, values.tool, coreVersion))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(root, ".changeset"), { recursive: true });
  writeFileSync(
    join(root, ".changeset", `${id}-initial.md`),
    `---\n"@quiver/plugin-${id}": minor\n---\n\nThe ${pascal(id)} plugin: \`${snake(id)}_${values.tool}\`.\n`,
  );
  console.log(`Wrote packages/plugins/${id}/ and .changeset/${id}-initial.md.
Next: pnpm install, then ./dev test packages/plugins/${id} (the package and conformance suites).`);
};

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
