import { mcpToFunctionTool } from "@openai/agents";
import { createCatalog } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { createFdaPlugin } from "../src/index.js";

// OpenAI strict mode needs every object closed and every property required (optional ones
// nullable). The FDA criteria were the last open object (a catch-all for unknown criteria); these
// tests convert both tools the way OpenAI Agents JS converts an MCP server's tools, and with
// Quiver's own OpenAI export.

const catalog = createCatalog({ env: {} });
catalog.register(createFdaPlugin());
const TOOLS = ["fda_search_drugs", "fda_count_drugs"] as const;

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[] } & Record<
  string,
  unknown
>;

/** Every object in a schema, with its path. */
const objects = (s: unknown, path = "$"): Array<[string, Schema]> => {
  if (typeof s !== "object" || s === null) return [];
  const node = s as Schema;
  const own: Array<[string, Schema]> = node.type === "object" ? [[path, node]] : [];
  return [
    ...own,
    ...Object.entries(node).flatMap(([k, v]) =>
      Array.isArray(v) ? v.flatMap((x, i) => objects(x, `${path}.${k}[${i}]`)) : objects(v, `${path}.${k}`),
    ),
  ];
};

describe("OpenAI strict mode", () => {
  it.each(TOOLS)("%s converts to a strict function tool in OpenAI Agents JS (mcpToFunctionTool)", (name) => {
    const { inputSchema, description } = catalog.describe(name, "mcp")!;
    const server = { name: "quiver" } as Parameters<typeof mcpToFunctionTool>[1];
    const tool = mcpToFunctionTool({ name, description, inputSchema } as never, server, true);
    // On a schema it cannot make strict, the SDK logs "Error converting MCP schema to strict mode" and
    // falls back to a non-strict tool.
    expect(tool.strict).toBe(true);
    expect(JSON.stringify(tool.parameters)).toContain("other_criteria");
  });

  it.each(TOOLS)("%s in Quiver's OpenAI export: every object closed, every property required", (name) => {
    const parameters = catalog.schemas("openai").find((t) => t.name === name)!.parameters;
    const all = objects(parameters);
    expect(all.length).toBeGreaterThanOrEqual(4); // input, search_criteria, approval_year, other_criteria item
    for (const [path, o] of all) {
      expect(o.additionalProperties, path).toBe(false);
      expect([...(o.required ?? [])].sort(), path).toEqual(Object.keys(o.properties ?? {}).sort());
    }
  });
});
