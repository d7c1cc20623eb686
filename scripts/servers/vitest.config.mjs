import { defineProject } from "vitest/config";

/**
 * The tests of the bundled one-plugin MCP servers (scripts/servers/*.test.mjs): each built bundle run
 * as a process, as MCP clients launch it. Build first (pnpm turbo run build --filter "./packages/servers/*").
 */
export default defineProject({
  test: { name: "scripts-servers", include: ["**/*.test.mjs"], testTimeout: 30_000, hookTimeout: 60_000 },
});
