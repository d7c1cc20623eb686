import { defineConfig } from "vitest/config";

/** One vitest run over every package; each package's own vitest.config.ts names its project. */
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "packages/plugins/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      "examples/*/vitest.config.ts",
      "scripts/*/vitest.config.mjs",
    ],
  },
});
