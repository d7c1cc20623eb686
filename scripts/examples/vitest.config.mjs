import { defineProject } from "vitest/config";

/** The unit tests of the example check (scripts/examples/*.test.mjs); the check itself is `pnpm check:examples`. */
export default defineProject({
  test: { name: "scripts-examples", include: ["**/*.test.mjs"] },
});
