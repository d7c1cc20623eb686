// The JavaScript build of a library package: its `src/index.ts` bundled into `dist/index.js`, with the
// modules it imports lazily (`import("./x.js")`) as chunks beside it, and its dependencies left as
// imports. Declarations come from `tsc --emitDeclarationOnly`, one `.d.ts` per source file as before.
//
// Why a bundle: Node resolves, reads and links every ES module separately, and `quiver list` loads
// every plugin and @quiver/core; the 69 modules of core's own code cost about 10 ms of a 190 ms start
// (measured in `pnpm bench host`), as much as everything the host does itself.
import { join } from "node:path";

/** The rolldown config of the package in `dir`. */
export const libraryConfig = (dir) => ({
  input: join(dir, "src/index.ts"),
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
