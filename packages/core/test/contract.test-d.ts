import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { defineTool } from "../src/index.js";

test("run receives the parsed input type and must return the output type", () => {
  defineTool({
    name: "typed",
    description: "Typed tool.",
    category: "x",
    input: z.object({ q: z.string(), k: z.number().default(3) }),
    output: z.object({ n: z.number() }),
    run: (input) => {
      expectTypeOf(input).toEqualTypeOf<{ q: string; k: number }>();
      return { n: input.k };
    },
  });

  defineTool({
    name: "wrong_output",
    description: "Wrong output.",
    category: "x",
    input: z.object({ q: z.string() }),
    output: z.object({ n: z.number() }),
    // @ts-expect-error the output must match the output schema
    run: (input) => ({ n: input.q }),
  });

  defineTool({
    name: "wrong_field",
    description: "Reads a field that does not exist.",
    category: "x",
    input: z.object({ q: z.string() }),
    output: z.object({ n: z.number() }),
    run: (input) => {
      // @ts-expect-error `missing` is not in the input schema
      return { n: input.missing };
    },
  });

  defineTool({
    name: "bad_example",
    description: "Example of the wrong shape.",
    category: "x",
    input: z.object({ q: z.string() }),
    output: z.object({}),
    // @ts-expect-error examples must match the input schema
    examples: [{ input: { q: 1 } }],
    run: () => ({}),
  });
});

test("inject names input fields only, as a session key or { from, mode }", () => {
  const base = {
    description: "Injected.",
    category: "x",
    input: z.object({ q: z.string(), subject: z.string().optional() }),
    output: z.object({}),
    run: () => ({}),
  };
  defineTool({ ...base, name: "plain", inject: { subject: "subject" } });
  defineTool({ ...base, name: "spec", inject: { subject: { from: "subject", mode: "default" } } });
  // @ts-expect-error `missing` is not an input field
  defineTool({ ...base, name: "missing", inject: { missing: "subject" } });
  // @ts-expect-error the mode is "override" or "default"
  defineTool({ ...base, name: "bad_mode", inject: { subject: { from: "subject", mode: "sometimes" } } });
});
