// The build of a bundled one-plugin MCP server (packages/servers/<plugin>): `src/main.ts` with
// everything it imports (the plugin, @quiver/core, @quiver/mcp, the MCP SDK, effect, zod ...) in
// `dist/`, so the published package has no dependencies and a cold `npx -y @quiver/<plugin>-mcp`
// downloads one small tarball instead of installing a tree (issue 40).
//
// Why chunks beside main.js and not one file: core and the plugins load their runtime (Effect) and
// their clients with `import()` at the first call, so a client's first `tools/list` never parses
// them; inlining them would make every start read the whole bundle.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join } from "node:path";

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Copies the plugin's built MCP Apps views (`dist/views/`) into the server's `dist/views/`, where the
 * bundled plugin reads them (`new URL("../dist/views/…", import.meta.url)` from a chunk in `dist/`).
 */
const copyViews = (dir) => ({
  name: "quiver-copy-plugin-views",
  writeBundle() {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const require = createRequire(join(dir, "package.json"));
    for (const name of Object.keys(pkg.devDependencies ?? {}).filter((n) =>
      n.startsWith("@quiver/plugin-"),
    )) {
      const views = join(dirname(require.resolve(`${name}/package.json`)), "dist", "views");
      if (existsSync(views)) cpSync(views, join(dir, "dist", "views"), { recursive: true });
    }
  },
});

/** The rolldown config of the server package in `dir`. */
export const serverConfig = (dir) => ({
  input: { main: join(dir, "src", "main.ts") },
  platform: "node",
  // Node's built-ins only: every package is bundled.
  external: (id) => builtins.has(id),
  // The packages' published builds (`default`), not their sources.
  resolve: { conditionNames: ["node", "import", "default"] },
  treeshake: true,
  plugins: [copyViews(dir)],
  output: {
    dir: join(dir, "dist"),
    cleanDir: true,
    format: "esm",
    minify: true,
    // No source maps: they would double the download for a stack trace few users read; the
    // packages' own builds (published beside) carry theirs.
    sourcemap: false,
    chunkFileNames: "[name]-[hash].js",
    // CommonJS modules in the bundle call require() for Node's built-ins.
    banner: (chunk) =>
      chunk.isEntry
        ? "#!/usr/bin/env node\nimport { createRequire as __quiverCreateRequire } from 'node:module'; const require = __quiverCreateRequire(import.meta.url);"
        : "",
  },
});
