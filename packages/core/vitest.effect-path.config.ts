import { defineProject } from "vitest/config";

/**
 * The policy tests again, with every call on the tool's Effect pipeline (see test/call-path.ts): the
 * direct call and the pipeline compose the same policies and must pass the same tests.
 */
export default defineProject({
  resolve: { conditions: ["@quiver/source"] },
  ssr: { resolve: { conditions: ["@quiver/source"] } },
  test: {
    name: "@quiver/core:effect-path",
    include: [
      "test/runtime.test.ts",
      "test/policy-time.test.ts",
      "test/timeout-deadline.test.ts",
      "test/per-call-timeout.test.ts",
      "test/plugin-capabilities.test.ts",
      "test/contract.test.ts",
      "test/aliases.test.ts",
      "test/call-path.test.ts",
      "test/call-handover.test.ts",
    ],
    env: { QUIVER_CALL_PATH: "effect" },
  },
});
