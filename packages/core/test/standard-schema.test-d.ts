import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { defineTool, type SchemaInput, type SchemaOutput } from "../src/index.js";

const input = toStandardJsonSchema(
  v.object({ q: v.string(), k: v.optional(v.number(), 3), tag: v.optional(v.string()) }),
);
const output = toStandardJsonSchema(v.object({ n: v.number() }));

test("a valibot tool's run, examples and inject are typed from its schemas", () => {
  expectTypeOf<SchemaInput<typeof input>>().toEqualTypeOf<{
    q: string;
    k?: number | undefined;
    tag?: string | undefined;
  }>();
  expectTypeOf<SchemaOutput<typeof input>>().toEqualTypeOf<{
    q: string;
    k: number;
    tag?: string | undefined;
  }>();

  defineTool({
    name: "typed",
    description: "Typed tool.",
    category: "x",
    input,
    output,
    examples: [{ input: { q: "hello" } }],
    inject: { tag: "subject" },
    run: (parsed) => {
      expectTypeOf(parsed).toEqualTypeOf<{ q: string; k: number; tag?: string | undefined }>();
      return { n: parsed.k };
    },
  });

  defineTool({
    name: "wrong_output",
    description: "Wrong output.",
    category: "x",
    input,
    output,
    // @ts-expect-error the output must match the output schema
    run: (parsed) => ({ n: parsed.q }),
  });

  defineTool({
    name: "bad_example",
    description: "Example of the wrong input type.",
    category: "x",
    input,
    output,
    // @ts-expect-error examples must match the input schema: q is a string
    examples: [{ input: { q: 1 } }],
    run: () => ({ n: 1 }),
  });

  defineTool({
    name: "bad_inject",
    description: "Injects a field that does not exist.",
    category: "x",
    input,
    output,
    // @ts-expect-error `missing` is not an input field
    inject: { missing: "subject" },
    run: () => ({ n: 1 }),
  });
});

test("an ArkType tool is typed from its schemas", () => {
  defineTool({
    name: "ark",
    description: "ArkType tool.",
    category: "x",
    input: type({ id: "string", "limit?": "number" }),
    output: type({ id: "string" }),
    run: (parsed) => {
      expectTypeOf(parsed).toEqualTypeOf<{ id: string; limit?: number }>();
      return { id: parsed.id };
    },
  });
});

test("a tool's input must be an object schema that exports JSON Schema", () => {
  defineTool({
    name: "scalar",
    description: "A string is not a tool input.",
    category: "x",
    // @ts-expect-error a tool's input is an object
    input: z.string(),
    output: z.object({}),
    run: () => ({}),
  });

  defineTool({
    name: "bare_valibot",
    description: "A valibot schema without toStandardJsonSchema cannot be exported.",
    category: "x",
    // @ts-expect-error valibot needs toStandardJsonSchema to export JSON Schema
    input: v.object({ q: v.string() }),
    output: z.object({}),
    run: () => ({}),
  });
});
