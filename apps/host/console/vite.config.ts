import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * Builds the console into apps/host/dist/console (shipped in the npm tarball): one page, its
 * scripts and styles with hashed names under /console/assets/. No source maps (the tarball stays
 * small); Preact's automatic JSX runtime.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/console/",
  logLevel: "warn",
  clearScreen: false,
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/console", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
