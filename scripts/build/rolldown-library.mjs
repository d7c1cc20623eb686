// The JavaScript build of a package: each entry (`src/index.ts`, and any subpath export or bin such as
// `src/server.ts`, `src/cli.ts`) bundled into `dist/<name>.js`, with the modules shared between entries
// or imported lazily (`import("./x.js")`) as chunks beside them, and its dependencies left as imports. Declarations come from `tsc --emitDeclarationOnly`, one `.d.ts` per source file as before.
//
// Why a bundle: Node resolves, reads and links every ES module separately, and `quiver list` loads
// every plugin and @quiver/core; the 69 modules of core's own code cost about 10 ms of a 190 ms start
// (measured in `pnpm bench host`), as much as everything the host does itself.
import { join } from "node:path";

/**
 * The rolldown config of the package in `dir`; `entries` are its entry modules under `src/` (default
 * `index`), each written to `dist/<entry>.js`.
 */
export const libraryConfig = (dir, entries = ["index"]) => ({
  input: Object.fromEntries(entries.map((name) => [name, join(dir, "src", `${name}.ts`)])),
  platform: "node",
  // A bare specifier (a dependency, a `node:` built-in) stays an import; only the package's own
  // relative modules are bundled.
  external: (id) => !/^[./]/.test(id),
  output: {
    dir: join(dir, "dist"),
    // Emptied first: chunk names carry a content hash, and a chunk of an earlier build left beside
    // the new ones would be published with them. The build runs `tsc --emitDeclarationOnly` after.
    cleanDir: true,
    format: "esm",
    sourcemap: true,
    chunkFileNames: "[name]-[hash].js",
  },
});
