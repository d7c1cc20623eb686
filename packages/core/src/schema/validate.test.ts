import { describe, expect, it } from "vitest";
import * as z from "zod";
import { parseToolInput } from "./repair.js";
import { unknownFields } from "./unknown-fields.js";
import { guardInput, MAX_INPUT_DEPTH } from "./validate.js";

const deep = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe("guardInput", () => {
  it("passes plain input, tabs and newlines included", () => {
    expect(guardInput({ query: "a\tb\nc\r\n", list: [1, "x", { y: null }] })).toBeUndefined();
    expect(guardInput(deep(MAX_INPUT_DEPTH - 1))).toBeUndefined();
    expect(guardInput({ when: new Date(0), seen: new Map([["a", "\u0000"]]) })).toBeUndefined();
  });

  it("checks the fields of an object of any class, as an in-process caller may pass one", () => {
    class Query {
      constructor(readonly text: string) {}
    }
    expect(guardInput({ q: new Query("a\u0000b") })?.message).toContain(
      "q.text contains the character U+0000",
    );
  });

  it("refuses input nested 100,000 levels deep, naming the limit, without exhausting the stack", () => {
    const problem = guardInput(deep(100_000));
    expect(problem?.message).toMatch(/nested deeper than the limit of 64 levels/);
  });

  it.each([
    ["NUL", "a\u0000b", "U+0000"],
    ["escape", "\u001b[31mred", "U+001B"],
    ["right-to-left override", "abc\u202Efed", "U+202E"],
    ["C1 control", "a\u0085b", "U+0085"],
    ["lone surrogate", "a\uD800b", "U+D800 (an unpaired surrogate)"],
  ])("refuses a %s in a value or a key, naming the field", (_, text, code) => {
    expect(guardInput({ q: { inner: [text] } })?.message).toContain(
      `q.inner[0] contains the character ${code}`,
    );
    expect(guardInput({ [text]: 1 })?.message).toContain(
      `a field name in input contains the character ${code}`,
    );
  });
});

describe("unknownFields and the repairs they add", () => {
  const schema = z.object({
    query: z.string(),
    limit: z.int().optional(),
    items: z.array(z.object({ name: z.string() })).optional(),
    loose: z.looseObject({ a: z.string() }).optional(),
  });

  it("names the fields a plain object would drop, nested ones included, and none of a loose object", () => {
    expect(
      unknownFields(schema, { query: "q", extra: 1, items: [{ name: "n", x: 2 }], loose: { a: "", b: 1 } }),
    ).toEqual(["extra", "items[0].x"]);
  });

  it("says what was repaired: a numeric string and a dropped field", () => {
    const parsed = parseToolInput(schema, { query: "q", limit: "5", extra: true });
    expect(parsed.ok && parsed.repairs).toEqual([
      'limit: converted string "5" to number 5',
      "extra: unknown field, ignored",
    ]);
  });

  it("refuses control characters and deep nesting before validation, also inside a JSON string it repairs", () => {
    const nul = parseToolInput(schema, { query: "semaglutide\u0000" });
    expect(nul.ok).toBe(false);
    expect(!nul.ok && nul.message).toMatch(/query contains the character U\+0000/);
    const nested = parseToolInput(schema, { query: "q", items: JSON.stringify(deep(1_000)) });
    expect(!nested.ok && nested.message).toMatch(/nested deeper than the limit/);
  });
});
