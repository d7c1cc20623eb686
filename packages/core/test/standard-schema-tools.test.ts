import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type } from "arktype";
import { Schema } from "effect";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  definePlugin,
  defineTool,
  isToolSchema,
  parseToolInput,
  type ToolPolicy,
  toJsonSchema,
} from "../src/index.js";

/** The same search tool's input in valibot and in zod. */
const valibotInput = toStandardJsonSchema(
  v.object({
    query: v.pipe(v.string(), v.minLength(2), v.description("Free-text search")),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 5),
    tags: v.optional(v.array(v.string())),
    weights: v.optional(v.record(v.string(), v.number())),
    tenant: v.optional(v.string()),
    subject: v.optional(v.pipe(v.string(), v.minLength(3))),
  }),
);
const zodInput = z.object({
  query: z.string().min(2).describe("Free-text search"),
  limit: z.int().min(1).max(50).default(5),
  tags: z.array(z.string()).optional(),
  weights: z.record(z.string(), z.number()).optional(),
  tenant: z.string().optional(),
  subject: z.string().min(3).optional(),
});
const valibotOutput = toStandardJsonSchema(
  v.object({ query: v.string(), limit: v.number(), run: v.number(), tenant: v.optional(v.string()) }),
);

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

describe("tools with any Standard Schema", () => {
  it("recognises valibot, ArkType and zod schemas that export JSON Schema", () => {
    expect(isToolSchema(valibotInput)).toBe(true);
    expect(isToolSchema(type({ q: "string" }))).toBe(true);
    expect(isToolSchema(zodInput)).toBe(true);
    // A bare valibot schema has no `~standard.jsonSchema`: it needs toStandardJsonSchema.
    expect(isToolSchema(v.object({ q: v.string() }))).toBe(false);
  });

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

  it("keeps repairs and 'did you mean' for zod only", () => {
    const sent = { query: "aspirin", limit: "7", tagz: ["x"] };
    const zod = parseToolInput(zodInput, sent);
    expect(zod).toMatchObject({ ok: true, value: { limit: 7 } });
    const misspelt = parseToolInput(zodInput.strict(), { query: "aspirin", limmit: 3 });
    expect(misspelt.ok || misspelt.message).toContain('did you mean "limit"');
    const valibot = parseToolInput(valibotInput, sent);
    expect(valibot).toMatchObject({ ok: false, issues: [{ path: "limit" }] });
  });

  it("exports a valibot input for every target, OpenAI strict included", () => {
    const ajv = new Ajv2020({ strict: false });
    for (const target of ["mcp", "anthropic", "openai", "gemini"] as const) {
      const schema = toJsonSchema(valibotInput, target);
      expect(schema.type, target).toBe("object");
      expect(schema).not.toHaveProperty("$schema");
      expect(Object.keys(schema.properties ?? {}), target).toEqual([
        "query",
        "limit",
        "tags",
        "weights",
        "tenant",
        "subject",
      ]);
      if (target !== "gemini") expect(ajv.validateSchema(schema), target).toBe(true);
    }
    const strict = toJsonSchema(valibotInput, "openai");
    expect(strict).toMatchObject({
      additionalProperties: false,
      required: ["query", "limit", "tags", "weights", "tenant", "subject"],
      properties: {
        query: { type: "string", description: "Free-text search (at least 2 characters)" },
        limit: { type: ["integer", "null"], minimum: 1, maximum: 50, description: "(default: 5)" },
        weights: { anyOf: [{ type: "array" }, { type: "null" }] },
      },
    });
    expect(toJsonSchema(valibotInput, "mcp").properties?.limit).toMatchObject({ default: 5 });
  });

  it("takes back what an OpenAI strict-mode model sends for a valibot tool", () => {
    const strict = toJsonSchema(valibotInput, "openai");
    const sent = {
      query: "aspirin",
      limit: null,
      tags: null,
      weights: [{ key: "title", value: 2 }],
      tenant: null,
      subject: null,
    };
    expect(new Ajv2020({ strict: false }).validate(strict, sent)).toBe(true);
    const parsed = parseToolInput(valibotInput, sent);
    expect(parsed).toMatchObject({ ok: true, value: { query: "aspirin", limit: 5, weights: { title: 2 } } });
    if (parsed.ok) {
      expect(parsed.value).not.toHaveProperty("tags");
      expect(parsed.repairs).toContain("weights: converted a list of {key, value} entries into an object");
    }
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
