import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { describe, expect, it } from "vitest";
import { envelopeOutputSchema, lightSchema } from "./envelope-schema.js";

const toolOutput = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { items: { type: "array", items: { type: "string" } } },
  required: ["items"],
  additionalProperties: false,
};
const metadata = {
  tool: "t",
  plugin: "p",
  callId: "c",
  durationMs: 1,
  attempts: 1,
  cached: false,
  truncated: false,
};

// The validator MCP SDK clients use on structuredContent.
const validate = new AjvJsonSchemaValidator().getValidator(envelopeOutputSchema(toolOutput) as never);

describe("envelopeOutputSchema", () => {
  it("drops the tool schema's $schema and types data by it on success", () => {
    const schema = envelopeOutputSchema(toolOutput) as {
      then: { properties: { data: Record<string, unknown> } };
    };
    expect(schema.then.properties.data).not.toHaveProperty("$schema");
    expect(validate({ status: "success", message: "ok", data: { items: ["a"] }, metadata }).valid).toBe(true);
    expect(validate({ status: "success", message: "ok", data: { items: [1] }, metadata }).valid).toBe(false);
  });

  it("accepts every non-success envelope whatever its data", () => {
    const error = { kind: "upstream", message: "down", retryable: true };
    for (const status of ["error", "timeout", "access_denied", "unavailable"]) {
      expect(validate({ status, message: "x", error, metadata }).valid).toBe(true);
    }
    expect(
      validate({ status: "partial", message: "confirm", data: { anything: true }, metadata }).valid,
    ).toBe(true);
  });

  it("accepts truncated success data that no longer matches the output schema", () => {
    const truncated = { ...metadata, truncated: true };
    expect(
      validate({ status: "success", message: "cut", data: "shortened… [truncated]", metadata: truncated })
        .valid,
    ).toBe(true);
  });

  it("rejects a value that is not an envelope", () => {
    expect(validate({ items: ["a"] }).valid).toBe(false);
    expect(validate({ status: "weird", message: "x", metadata }).valid).toBe(false);
  });
});

describe("lightSchema", () => {
  it("keeps what validates and drops what only documents", () => {
    const light = lightSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      description: "A thing.",
      properties: {
        count: { type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        kind: { type: "string", enum: ["a", "b"], description: "Which" },
        note: { type: ["string", "null"] },
        anything: { description: "Free-form" },
      },
      required: ["count", "kind"],
      additionalProperties: false,
    });
    expect(light).toEqual({
      type: "object",
      properties: {
        count: { type: "integer" },
        kind: { enum: ["a", "b"] },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["count", "kind"],
    });
  });

  it("keeps a property named like a documentation keyword", () => {
    expect(lightSchema({ type: "object", properties: { description: { type: "string" } } })).toEqual({
      type: "object",
      properties: { description: { type: "string" } },
    });
  });
});

describe("the served envelope", () => {
  it("is brief: well under a kilobyte around the tool's data", () => {
    const bytes = JSON.stringify(envelopeOutputSchema({ type: "object" })).length;
    expect(bytes).toBeLessThan(700);
  });

  it("types every node it names (no schema that constrains nothing, no type arrays)", () => {
    const untyped: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (typeof node !== "object" || node === null) return;
      const n = node as Record<string, unknown>;
      if (Array.isArray(n.type)) untyped.push(`${path}: type array`);
      for (const [key, value] of Object.entries(n)) {
        if (key === "properties")
          for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
            if (Object.keys(sub as object).length === 0) untyped.push(`${path}.${name}`);
            visit(sub, `${path}.${name}`);
          }
        else if (typeof value === "object") visit(value, `${path}.${key}`);
      }
    };
    visit(envelopeOutputSchema(toolOutput), "outputSchema");
    expect(untyped).toEqual([]);
  });
});
