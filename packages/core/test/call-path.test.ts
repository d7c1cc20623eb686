import * as Fiber from "effect/Fiber";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { definePlugin, defineTool } from "../src/index.js";
import { CALL_PATH, createCatalog, spansMade } from "./call-path.js";

describe(`the call path of this test run (${CALL_PATH})`, () => {
  it(
    CALL_PATH === "effect"
      ? "runs every call through the tool's Effect pipeline: in a fiber, with a span each"
      : "runs the usual call without a fiber and without a span",
    async () => {
      const inFiber: boolean[] = [];
      const where = defineTool({
        name: "where",
        description: "Says whether it runs in a fiber.",
        category: "computational_service",
        input: z.object({ q: z.string().describe("Any text") }),
        output: z.object({ q: z.string() }),
        annotations: { readOnly: true, openWorld: false },
        policy: { cache: { ttl: "1m" }, retry: { times: 1 }, timeout: "5s", breaker: { failures: 3 } },
        run: async ({ q }) => {
          inFiber.push(Fiber.getCurrent() !== undefined);
          return { q };
        },
      });
      const catalog = createCatalog();
      catalog.register(
        definePlugin({ specificationVersion: "v1", id: "where", version: "1.0.0", tools: [where] }),
      );
      const before = spansMade.count;
      for (let i = 0; i < 3; i++) {
        expect((await catalog.call("where", { q: `call ${i}` })).status).toBe("success");
      }
      expect(inFiber).toEqual(CALL_PATH === "effect" ? [true, true, true] : [false, false, false]);
      expect(spansMade.count - before).toBe(CALL_PATH === "effect" ? 3 : 0);
      await catalog.close();
    },
  );
});
