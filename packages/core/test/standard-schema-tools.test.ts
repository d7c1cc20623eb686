import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  definePlugin,
  defineTool,
  parseToolInput,
  type ToolPolicy,
} from "../src/index.js";
import { valibotInput, valibotOutput, zodInput } from "./standard-schema-fixtures.js";

let catalogs: Catalog[] = [];
afterEach(async () => {
  await Promise.all(catalogs.map((c) => c.close()));
  catalogs = [];
});

/** A catalog with a valibot search tool and its zod twin; `runs` counts the runs of each. */
const searchCatalog = (policy: ToolPolicy = {}) => {
  const runs = { valibot: 0, zod: 0 };
  const inject = { tenant: "principal", subject: { from: "subject", mode: "default" } } as const;
  const common = { category: "web_search", policy, inject } as const;
  const valibotTool = defineTool({
    ...common,
    name: "valibot_search",
    description: "Searches (valibot schemas).",
    input: valibotInput,
    output: valibotOutput,
    run: ({ query, limit, tenant }) => ({ query, limit, run: ++runs.valibot, ...(tenant ? { tenant } : {}) }),
  });
  const zodTool = defineTool({
    ...common,
    name: "zod_search",
    description: "Searches (zod schemas).",
    input: zodInput,
    output: z.object({ query: z.string(), limit: z.number(), run: z.number() }),
    run: ({ query, limit }) => ({ query, limit, run: ++runs.zod }),
  });
  const catalog = createCatalog();
  catalogs.push(catalog);
  catalog.register(
    definePlugin({
      specificationVersion: "v1",
      id: "search",
      version: "1.0.0",
      tools: [valibotTool, zodTool],
    }),
  );
  return { catalog, runs };
};

describe("tools with valibot schemas in a catalog", () => {
  it("validates a valibot tool's input through ~standard.validate, defaults applied, like its zod twin", async () => {
    const { catalog } = searchCatalog();
    for (const name of ["valibot_search", "zod_search"]) {
      const result = await catalog.call(name, { query: "aspirin" });
      expect(result.status, name).toBe("success");
      expect(result.data, name).toMatchObject({ query: "aspirin", limit: 5, run: 1 });
    }
  });

  it("answers bad valibot input with invalid_input naming the field", async () => {
    const { catalog, runs } = searchCatalog();
    const wrong = await catalog.call("valibot_search", { query: "aspirin", limit: "many" });
    expect(wrong.status).toBe("error");
    expect(wrong.error?.kind).toBe("invalid_input");
    expect(wrong.message).toMatch(/^Invalid input: limit: /);
    expect(wrong.message).toContain("number");
    expect(wrong.suggestion).toContain("limit");

    const missing = await catalog.call("valibot_search", { limit: 3 });
    expect(missing.error?.kind).toBe("invalid_input");
    expect(missing.message).toMatch(/query: required field is missing/);

    const nested = parseToolInput(valibotInput, { query: "aspirin", tags: ["a", 7] });
    expect(nested.ok).toBe(false);
    if (!nested.ok) expect(nested.issues[0]).toMatchObject({ path: "tags[1]", received: "number 7" });
    expect(runs.valibot).toBe(0);
  });

  it("hides an injected field of a valibot tool from every schema and fills it", async () => {
    const { catalog } = searchCatalog();
    for (const target of ["mcp", "openai", "anthropic", "gemini"] as const) {
      const tool = catalog.schemas(target).find((t) => t.name === "valibot_search")!;
      const properties = Object.keys((tool.parameters as { properties: object }).properties);
      expect(properties, target).not.toContain("tenant");
      expect(properties, target).toContain("subject");
    }
    const result = await catalog.call(
      "valibot_search",
      { query: "aspirin", tenant: "spoofed" },
      { session: { principal: "alice" } },
    );
    expect(result.data).toMatchObject({ tenant: "alice" });
    const anonymous = await catalog.call("valibot_search", { query: "aspirin", tenant: "spoofed" });
    expect(anonymous.data).not.toHaveProperty("tenant");
  });

  it("fills a default-mode field only with a value the valibot schema accepts", async () => {
    let seen: unknown;
    const tool = defineTool({
      name: "subject_probe",
      description: "Echoes the subject.",
      category: "education",
      input: valibotInput,
      output: toStandardJsonSchema(v.object({ subject: v.nullable(v.string()) })),
      inject: { subject: { from: "subject", mode: "default" } },
      run: (input) => {
        seen = input.subject;
        return { subject: input.subject ?? null };
      },
    });
    const catalog = createCatalog();
    catalogs.push(catalog);
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "subj", version: "1.0.0", tools: [tool] }),
    );
    await catalog.call(
      "subject_probe",
      { query: "aspirin" },
      { session: { values: { subject: "biology" } } },
    );
    expect(seen).toBe("biology");
    // "ab" is shorter than the schema's minimum: the session value is not used.
    await catalog.call("subject_probe", { query: "aspirin" }, { session: { values: { subject: "ab" } } });
    expect(seen).toBeUndefined();
    await catalog.call(
      "subject_probe",
      { query: "aspirin", subject: "physics" },
      { session: { values: { subject: "biology" } } },
    );
    expect(seen).toBe("physics");
  });

  it("caches a valibot tool's result under a key that ignores field order and applied defaults", async () => {
    const { catalog, runs } = searchCatalog({ cache: { ttl: "1m" } });
    const first = await catalog.call("valibot_search", { query: "aspirin", tags: ["a"] });
    const reordered = await catalog.call("valibot_search", { tags: ["a"], query: "aspirin", limit: 5 });
    expect(first.data).toMatchObject({ run: 1 });
    expect(reordered.data).toMatchObject({ run: 1 });
    expect(runs.valibot).toBe(1);
    const other = await catalog.call("valibot_search", { query: "aspirin", limit: 6 });
    expect(other.data).toMatchObject({ run: 2 });
  });

  it("checks a valibot tool's output and exports its output schema", async () => {
    const liar = defineTool({
      name: "liar",
      description: "Returns the wrong shape.",
      category: "computational_service",
      input: toStandardJsonSchema(v.object({})),
      output: valibotOutput,
      run: () => ({ query: "q", limit: "five", run: 1 }) as never,
    });
    const catalog = createCatalog();
    catalogs.push(catalog);
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "liar", version: "1.0.0", tools: [liar] }),
    );
    const result = await catalog.call("liar", {});
    expect(result.error?.kind).toBe("internal");
    expect(result.message).toContain("limit");
    expect(catalog.describe("liar")?.outputSchema).toMatchObject({
      type: "object",
      properties: { limit: { type: "number" } },
    });
  });
});
