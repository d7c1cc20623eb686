import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["@quiver/source"] },
  ssr: { resolve: { conditions: ["@quiver/source"] } },
  test: {
    name: "@quiver/host",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
