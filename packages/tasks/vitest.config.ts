import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["@quiver/source"] },
  ssr: { resolve: { conditions: ["@quiver/source"] } },
  test: { name: "@quiver/tasks" },
});
