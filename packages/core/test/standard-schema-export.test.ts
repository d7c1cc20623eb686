import { Ajv2020 } from "ajv/dist/2020.js";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { isToolSchema, parseToolInput, toJsonSchema } from "../src/index.js";
import { valibotInput, zodInput } from "./standard-schema-fixtures.js";

describe("Standard Schema inputs: recognised, exported, parsed", () => {
  it("recognises valibot, ArkType and zod schemas that export JSON Schema", () => {
    expect(isToolSchema(valibotInput)).toBe(true);
    expect(isToolSchema(type({ q: "string" }))).toBe(true);
    expect(isToolSchema(zodInput)).toBe(true);
    // A bare valibot schema has no `~standard.jsonSchema`: it needs toStandardJsonSchema.
    expect(isToolSchema(v.object({ q: v.string() }))).toBe(false);
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
});
