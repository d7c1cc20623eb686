import { type } from "arktype";
import { Schema } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Catalog, createCatalog, definePlugin, defineTool } from "../src/index.js";

let catalogs: Catalog[] = [];
afterEach(async () => {
  await Promise.all(catalogs.map((c) => c.close()));
  catalogs = [];
});

describe("tools with ArkType and effect Schema, and a schema that validates asynchronously", () => {
  it("runs an ArkType tool: validated, exported for OpenAI strict, refused with the field named", async () => {
    const tool = defineTool({
      name: "ark_lookup",
      description: "Looks an item up (ArkType schemas).",
      category: "discovery",
      input: type({ id: "string>1", "kind?": "'book'|'paper'" }),
      output: type({ id: "string" }),
      run: ({ id }) => ({ id }),
    });
    const catalog = createCatalog();
    catalogs.push(catalog);
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "ark", version: "1.0.0", tools: [tool] }),
    );
    expect((await catalog.call("ark_lookup", { id: "ab" })).data).toEqual({ id: "ab" });
    const bad = await catalog.call("ark_lookup", { id: "ab", kind: "film" });
    expect(bad.error?.kind).toBe("invalid_input");
    expect(bad.message).toMatch(/^Invalid input: kind: /);
    expect(catalog.schemas("openai")[0]?.parameters).toMatchObject({
      additionalProperties: false,
      required: ["id", "kind"],
    });
  });

  it("runs an effect Schema tool: validated, exported for OpenAI strict, refused with the field named", async () => {
    /** effect's Standard Schema (validation) and Standard JSON Schema (export) views, together. */
    const standard = <S extends Schema.Codec<unknown, unknown>>(schema: S) =>
      Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(schema));
    const tool = defineTool({
      name: "effect_lookup",
      description: "Looks an item up (effect Schema).",
      category: "discovery",
      input: standard(Schema.Struct({ id: Schema.String, limit: Schema.optional(Schema.Finite) })),
      output: standard(Schema.Struct({ id: Schema.String })),
      run: ({ id }) => ({ id }),
    });
    const catalog = createCatalog();
    catalogs.push(catalog);
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "eff", version: "1.0.0", tools: [tool] }),
    );
    expect((await catalog.call("effect_lookup", { id: "ab", limit: 2 })).data).toEqual({ id: "ab" });
    const bad = await catalog.call("effect_lookup", { id: 7 });
    expect(bad.error?.kind).toBe("invalid_input");
    expect(bad.message).toMatch(/^Invalid input: id: /);
    expect(catalog.schemas("openai")[0]?.parameters).toMatchObject({
      additionalProperties: false,
      required: ["id", "limit"],
      properties: { id: { type: "string" } },
    });
  });

  it("refuses a schema that validates asynchronously as a defect, not a hang", async () => {
    const tool = defineTool({
      name: "async_check",
      description: "Has an async refinement.",
      category: "computational_service",
      input: z.object({ q: z.string().refine(async (q) => q.length > 0) }),
      output: z.object({}),
      run: () => ({}),
    });
    const catalog = createCatalog();
    catalogs.push(catalog);
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "async", version: "1.0.0", tools: [tool] }),
    );
    const result = await catalog.call("async_check", { q: "x" });
    expect(result.status).toBe("error");
    expect(result.error?.kind).toBe("internal");
  });
});
