import { defineConfig } from "vitest/config";

/** One vitest run over every package, resolving workspace packages to their TypeScript source. */
export default defineConfig({
  resolve: { conditions: ["@quiver/source"] },
  ssr: { resolve: { conditions: ["@quiver/source"] } },
  test: {
    projects: ["packages/*", "packages/plugins/*", "apps/*", "examples/*"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
