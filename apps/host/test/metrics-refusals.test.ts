import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toPrometheus } from "../src/http/prometheus.js";

const strict = defineTool({
  name: "r_strict",
  description: "Takes a small integer.",
  category: "computational_service",
  input: z.object({ n: z.int().min(1).max(10).describe("n") }),
  output: z.object({ n: z.number() }),
  run: ({ n }) => ({ n }),
});
/** A schema whose refinement throws: validation itself fails, before any pipeline runs. */
const brokenSchema = defineTool({
  name: "r_broken_schema",
  description: "Its input schema throws.",
  category: "computational_service",
  input: z.object({
    q: z
      .string()
      .describe("q")
      .refine(() => {
        throw new Error("the refinement blew up");
      }),
  }),
  output: z.object({}),
  run: () => ({}),
});
/** A run that throws a plain Error (a defect, not a ToolFailure). */
const defect = defineTool({
  name: "r_defect",
  description: "Throws a defect.",
  category: "computational_service",
  input: z.object({}),
  output: z.object({}),
  policy: { retry: false },
  run: () => {
    throw new TypeError("undefined is not a function");
  },
});

const catalog = createCatalog({ env: {} });
catalog.register(
  definePlugin({
    specificationVersion: "v1",
    id: "r",
    version: "1.0.0",
    tools: [strict, brokenSchema, defect],
  }),
);
afterAll(() => catalog.close());

const count = (text: string, metric: string, tool: string, label: string) =>
  Number(new RegExp(`${metric}\\{tool="${tool}",plugin="r",${label}\\} (\\d+)`).exec(text)?.[1] ?? 0);

describe("/metrics counts every call, refused and failed ones included", () => {
  it("counts validation refusals, inputs refused for depth or control characters, and runtime internal failures", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const answers = [
      await catalog.call("r_strict", { n: 500 }),
      await catalog.call("r_strict", { n: "a\u0000" }),
      await catalog.call("r_strict", { n: deep }),
      await catalog.call("r_strict", { n: 3 }),
      await catalog.call("r_broken_schema", { q: "x" }),
      await catalog.call("r_defect", {}),
    ];
    expect(answers.map((a) => a.error?.kind ?? a.status)).toEqual([
      "invalid_input",
      "invalid_input",
      "invalid_input",
      "success",
      "internal",
      "internal",
    ]);
    expect(answers[2]!.message).toMatch(/nested deeper than the limit of 64 levels/);
    const text = toPrometheus(await catalog.metrics(), []);
    expect(count(text, "quiver_tool_calls_total", "r_strict", 'status="error"')).toBe(3);
    expect(count(text, "quiver_tool_calls_total", "r_strict", 'status="success"')).toBe(1);
    expect(count(text, "quiver_tool_failures_total", "r_strict", 'kind="invalid_input"')).toBe(3);
    expect(count(text, "quiver_tool_calls_total", "r_broken_schema", 'status="error"')).toBe(1);
    expect(count(text, "quiver_tool_failures_total", "r_broken_schema", 'kind="internal"')).toBe(1);
    expect(count(text, "quiver_tool_failures_total", "r_defect", 'kind="internal"')).toBe(1);
  });
});
