import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contentOutput, remoteInputSchema, remoteOutputSchema } from "./remote-schema.js";

describe("remote schemas", () => {
  it("converts a remote JSON Schema to a zod object that validates and keeps defaults", () => {
    const schema = remoteInputSchema({
      type: "object",
      properties: { a: { type: "number", description: "First" }, steps: { type: "number", default: 5 } },
      required: ["a"],
    });
    expect(schema.safeParse({ a: 1 })).toEqual({ success: true, data: { a: 1, steps: 5 } });
    expect(schema.safeParse({ a: "x" }).success).toBe(false);
    expect(z.toJSONSchema(schema)).toMatchObject({
      properties: { a: { type: "number", description: "First" } },
      required: ["a"],
    });
  });

  it("falls back to a permissive object that carries the original schema in its description", () => {
    const odd = { type: "array", items: { type: "string" } };
    const schema = remoteInputSchema(odd);
    expect(schema.safeParse({ anything: 1 }).success).toBe(true);
    expect(schema.description).toContain(JSON.stringify(odd));
    expect(remoteInputSchema(undefined).safeParse({}).success).toBe(true);
  });

  it("uses the declared output schema, else text plus content blocks", () => {
    expect(remoteOutputSchema(undefined)).toBe(contentOutput);
    const out = remoteOutputSchema({
      type: "object",
      properties: { t: { type: "number" } },
      required: ["t"],
    });
    expect(out.safeParse({ t: 1 }).success).toBe(true);
    expect(out.safeParse({}).success).toBe(false);
  });
});
