import { defineProject } from "vitest/config";

/** The unit tests of the weight scripts (scripts/weight/*.test.mjs); the measurements themselves are `./dev bench weight`. */
export default defineProject({
  test: { name: "scripts-weight", include: ["**/*.test.mjs"] },
});
