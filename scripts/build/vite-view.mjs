// The build of a plugin's MCP Apps view (`views/<name>/index.html` and its scripts): one
// self-contained HTML file, `dist/views/<name>/index.html`, every script and style inlined
// (vite-plugin-singlefile), so the page needs no network and ships in the package's tarball.
// The plugin's `views` slot reads it back from there (`viewPage` of its index).
// The package passes `viteSingleFile` in: vite and the plugin resolve from its own dependencies.
import { join } from "node:path";

/** The vite config of the view `name` of the plugin package in `dir`, inlined by `viteSingleFile`. */
export const viewConfig = (dir, name, viteSingleFile) => ({
  root: join(dir, "views", name),
  base: "./",
  logLevel: "warn",
  clearScreen: false,
  plugins: [viteSingleFile({ removeViewportMeta: false })],
  build: {
    outDir: join(dir, "dist", "views", name),
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
