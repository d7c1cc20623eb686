import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { describe, expect, it } from "vitest";
import { envelopeOutputSchema } from "./envelope-schema.js";

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
