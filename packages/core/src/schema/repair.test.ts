import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { type ParseToolInputResult, parseToolInput } from "./repair.js";

const input = z.object({
  query: z.string().min(1).describe("Search text"),
  limit: z.int().min(1).max(100).default(10),
  sort: z.enum(["relevance", "date"]).optional(),
  exact: z.boolean().optional(),
  score: z.number().optional(),
  tags: z.array(z.string()).optional(),
  filters: z
    .strictObject({
      date_from: z.iso.date().optional(),
      routes: z.array(z.enum(["oral", "topical"])).optional(),
    })
    .optional(),
  items: z.array(z.object({ name: z.string(), count: z.int().positive().optional() })).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  target: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("drug"), name: z.string() }),
      z.object({ kind: z.literal("device"), class: z.int().min(1).max(3) }),
    ])
    .optional(),
  id: z.union([z.number(), z.boolean()]).optional(),
});

function ok<T>(result: ParseToolInputResult<T>): { value: T; repairs: ReadonlyArray<string> } {
  if (!result.ok) throw new Error(`expected ok, got: ${result.message}`);
  return result;
}

function rejected<T>(result: ParseToolInputResult<T>) {
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.value)}`);
  return result;
}

describe("parseToolInput: valid input", () => {
  it("returns zod's output unchanged, with zero repairs", () => {
    const raw = { query: "aspirin", limit: 5, tags: ["a"], headers: { a: "b" } };
    const result = ok(parseToolInput(input, raw));
    expect(result.repairs).toEqual([]);
    expect(result.value).toEqual(raw);
  });

  it("applies defaults as zod does", () => {
    expect(ok(parseToolInput(input, { query: "x" })).value).toEqual({ query: "x", limit: 10 });
  });

  it("types the value as the schema's output", () => {
    const result = parseToolInput(input, { query: "x" });
    if (result.ok) expectTypeOf(result.value.limit).toEqualTypeOf<number>();
  });
});

describe("parseToolInput: repairs", () => {
  it("parses a whole input sent as a JSON string", () => {
    const result = ok(parseToolInput(input, '{"query":"aspirin","limit":3}'));
    expect(result.value).toEqual({ query: "aspirin", limit: 3 });
    expect(result.repairs).toEqual(["input: parsed the JSON string into an object"]);
  });

  it("parses a nested object sent as a JSON string", () => {
    const result = ok(parseToolInput(input, { query: "x", filters: '{"date_from":"2024-01-02"}' }));
    expect(result.value.filters).toEqual({ date_from: "2024-01-02" });
    expect(result.repairs).toEqual(["filters: parsed the JSON string into an object"]);
  });

  it("parses a nested array sent as a JSON string", () => {
    const result = ok(parseToolInput(input, { query: "x", tags: ' ["a","b"] ' }));
    expect(result.value.tags).toEqual(["a", "b"]);
    expect(result.repairs).toEqual(["tags: parsed the JSON string into an array"]);
  });

  it("treats null for an optional field as absent", () => {
    const result = ok(parseToolInput(input, { query: "x", sort: null, filters: null }));
    expect(result.value).toEqual({ query: "x", limit: 10 });
    expect(result.value).not.toHaveProperty("sort");
    expect(result.repairs).toEqual([
      "sort: null for an optional field, treated as absent (left out)",
      "filters: null for an optional field, treated as absent (left out)",
    ]);
  });

  it("treats null for a defaulted field as absent, so the default applies", () => {
    const result = ok(parseToolInput(input, { query: "x", limit: null }));
    expect(result.value.limit).toBe(10);
    expect(result.repairs).toEqual([
      "limit: null for an optional field, treated as absent (the default applies)",
    ]);
  });

  it("converts numeric strings where a number is expected", () => {
    const result = ok(parseToolInput(input, { query: "x", limit: "5", score: " -1.5e2 " }));
    expect(result.value).toMatchObject({ limit: 5, score: -150 });
    expect(result.repairs).toEqual([
      'limit: converted string "5" to number 5',
      'score: converted string " -1.5e2 " to number -150',
    ]);
  });

  it('converts "true"/"false" where a boolean is expected', () => {
    expect(ok(parseToolInput(input, { query: "x", exact: "false" })).value.exact).toBe(false);
    expect(ok(parseToolInput(input, { query: "x", exact: "TRUE" })).value.exact).toBe(true);
  });

  it("turns a list of {key, value} entries into a record (the OpenAI strict encoding)", () => {
    const result = ok(
      parseToolInput(input, {
        query: "x",
        headers: [
          { key: "a", value: "1" },
          { key: "b", value: "2" },
        ],
      }),
    );
    expect(result.value.headers).toEqual({ a: "1", b: "2" });
    expect(result.repairs).toEqual(["headers: converted a list of {key, value} entries into an object"]);
    expect(ok(parseToolInput(input, { query: "x", headers: [] })).value.headers).toEqual({});
  });

  it("wraps a single value where an array of it is expected", () => {
    const result = ok(parseToolInput(input, { query: "x", tags: "cardio" }));
    expect(result.value.tags).toEqual(["cardio"]);
    expect(result.repairs).toEqual(["tags: wrapped the single value in an array"]);
  });

  it("repairs inside arrays and names the element", () => {
    const result = ok(
      parseToolInput(input, { query: "x", items: [{ name: "a" }, { name: "b", count: "3" }] }),
    );
    expect(result.value.items?.[1]).toEqual({ name: "b", count: 3 });
    expect(result.repairs).toEqual(['items[1].count: converted string "3" to number 3']);
  });

  it("repairs inside the selected option of a discriminated union", () => {
    const result = ok(parseToolInput(input, { query: "x", target: { kind: "device", class: "2" } }));
    expect(result.value.target).toEqual({ kind: "device", class: 2 });
  });

  it("repairs inside the one option of a plain union it can fix", () => {
    const result = ok(parseToolInput(input, { query: "x", id: "true" }));
    expect(result.value.id).toBe(true);
    expect(result.repairs).toEqual(['id: converted string "true" to boolean true']);
    expect(ok(parseToolInput(input, { query: "x", id: "12" })).value.id).toBe(12);
  });

  it("chains repairs across levels: a JSON string holding a nested JSON string and numeric strings", () => {
    const raw = JSON.stringify({ query: "x", limit: "7", filters: JSON.stringify({ routes: "oral" }) });
    const result = ok(parseToolInput(input, raw));
    expect(result.value).toEqual({ query: "x", limit: 7, filters: { routes: ["oral"] } });
    expect(result.repairs).toEqual([
      "input: parsed the JSON string into an object",
      'limit: converted string "7" to number 7',
      "filters: parsed the JSON string into an object",
      "filters.routes: wrapped the single value in an array",
    ]);
  });

  it("treats a missing, null or empty input as {}", () => {
    const optional = z.object({ limit: z.int().default(10) });
    for (const raw of [undefined, null, "", " "]) {
      const result = ok(parseToolInput(optional, raw));
      expect(result.value).toEqual({ limit: 10 });
      expect(result.repairs).toEqual(["input: no arguments sent, treated as {}"]);
    }
    expect(rejected(parseToolInput(input, undefined)).issues.map((i) => i.message)).toEqual([
      "query: required field is missing (expected string of at least 1 characters)",
    ]);
  });

  it("does not modify the caller's input", () => {
    const raw = { query: "x", limit: "5", filters: null };
    parseToolInput(input, raw);
    expect(raw).toEqual({ query: "x", limit: "5", filters: null });
  });

  it("does nothing with repair: false", () => {
    const result = rejected(parseToolInput(input, { query: "x", limit: "5" }, { repair: false }));
    expect(result.issues.map((i) => i.path)).toEqual(["limit"]);
  });
});

describe("parseToolInput: rejections", () => {
  it("does not treat a non-numeric string as a number", () => {
    const result = rejected(parseToolInput(input, { query: "x", limit: "5abc" }));
    expect(result.issues).toEqual([
      {
        path: "limit",
        expected: "integer between 1 and 100",
        received: 'string "5abc"',
        message: 'limit: expected integer between 1 and 100, received string "5abc"',
      },
    ]);
  });

  it("does not accept null for a required field", () => {
    const result = rejected(parseToolInput(input, { query: null }));
    expect(result.issues[0]).toMatchObject({ path: "query", received: "null" });
  });

  it("does not wrap a value its array's elements would reject", () => {
    const result = rejected(parseToolInput(input, { query: "x", filters: { routes: "intravenous" } }));
    expect(result.issues[0]).toMatchObject({
      path: "filters.routes",
      expected: 'array of one of "oral", "topical"',
      received: 'string "intravenous"',
    });
  });

  it("names a missing required field and suggests a placeholder", () => {
    const result = rejected(parseToolInput(input, { limit: 5 }));
    expect(result.issues).toEqual([
      {
        path: "query",
        expected: "string of at least 1 characters",
        received: "nothing",
        message: "query: required field is missing (expected string of at least 1 characters)",
      },
    ]);
    expect(result.message).toBe(
      "Invalid input: query: required field is missing (expected string of at least 1 characters)",
    );
    expect(result.suggestion).toBe(
      'Call the tool again with: {"limit":5,"query":"<query: string of at least 1 characters>"}. Replace each <field: type> placeholder with a real value.',
    );
  });

  it("clamps an out-of-range number in the suggestion", () => {
    const result = rejected(parseToolInput(input, { query: "x", limit: 150 }));
    expect(result.issues[0]).toMatchObject({
      path: "limit",
      expected: "integer between 1 and 100",
      received: "number 150",
    });
    expect(result.suggestion).toBe('Call the tool again with: {"query":"x","limit":100}.');
  });

  it("moves past an exclusive integer bound", () => {
    const result = rejected(parseToolInput(input, { query: "x", items: [{ name: "a", count: 0 }] }));
    expect(result.issues[0]).toMatchObject({
      path: "items[0].count",
      expected: "integer > 0",
      received: "number 0",
    });
    expect(result.suggestion).toContain('"count":1');
  });

  it("suggests the nearest enum value", () => {
    const result = rejected(parseToolInput(input, { query: "x", sort: "Relevanse" }));
    expect(result.issues[0]).toEqual({
      path: "sort",
      expected: 'one of "relevance", "date"',
      received: 'string "Relevanse"',
      message: 'sort: expected one of "relevance", "date", received string "Relevanse"',
    });
    expect(result.suggestion).toBe('Call the tool again with: {"query":"x","sort":"relevance"}.');
  });

  it("names nested fields by dotted path, with the format expected", () => {
    const result = rejected(parseToolInput(input, { query: "x", filters: { date_from: "01/02/2024" } }));
    expect(result.issues[0]).toMatchObject({
      path: "filters.date_from",
      expected: "string in date (YYYY-MM-DD) format",
      received: 'string "01/02/2024"',
    });
    expect(result.suggestion).toContain(
      '"date_from":"<filters.date_from: string in date (YYYY-MM-DD) format>"',
    );
  });

  it("names array elements by index", () => {
    const result = rejected(
      parseToolInput(input, { query: "x", items: [{ name: "a" }, { name: "b" }, { name: 3 }] }),
    );
    expect(result.issues[0]).toMatchObject({
      path: "items[2].name",
      expected: "string",
      received: "number 3",
    });
    expect(result.message).toBe("Invalid input: items[2].name: expected string, received number 3");
  });

  it("reports each unknown key of a strict object and drops it in the suggestion", () => {
    const result = rejected(
      parseToolInput(input, { query: "x", filters: { date_from: "2024-01-02", to: "x", extra: 1 } }),
    );
    expect(result.issues.map((i) => i.path)).toEqual(["filters.to", "filters.extra"]);
    expect(result.issues[0]).toMatchObject({
      expected: "one of the known fields date_from, routes",
      message: "filters.to: unknown field; known fields are date_from, routes",
    });
    expect(result.suggestion).toBe(
      'Call the tool again with: {"query":"x","filters":{"date_from":"2024-01-02"}}.',
    );
  });

  it("names the known field a near-miss key meant and moves its value there in the suggestion", () => {
    const result = rejected(parseToolInput(input, { query: "x", filters: { route: ["oral"] } }));
    expect(result.issues[0]).toMatchObject({
      path: "filters.route",
      message: 'filters.route: unknown field; known fields are date_from, routes; did you mean "routes"?',
    });
    expect(result.suggestion).toBe('Call the tool again with: {"query":"x","filters":{"routes":["oral"]}}.');
    // The meant field is already there: the stray key is only dropped.
    const both = rejected(
      parseToolInput(input, { query: "x", filters: { routes: ["topical"], route: ["oral"] } }),
    );
    expect(both.suggestion).toBe('Call the tool again with: {"query":"x","filters":{"routes":["topical"]}}.');
  });

  it("reports an unknown discriminator on its field and suggests the nearest option", () => {
    const result = rejected(parseToolInput(input, { query: "x", target: { kind: "drugs", name: "a" } }));
    expect(result.issues[0]).toMatchObject({
      path: "target.kind",
      expected: 'one of "drug", "device"',
      received: 'string "drugs"',
    });
    expect(result.suggestion).toContain('"target":{"kind":"drug","name":"a"}');
  });

  it("reports inside the option of a plain union the model evidently meant", () => {
    const schema = z.object({ where: z.union([z.string(), z.object({ lat: z.number(), lon: z.number() })]) });
    const result = rejected(parseToolInput(schema, { where: { lat: 1, lon: "east" } }));
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({
      path: "where.lon",
      expected: "number",
      received: 'string "east"',
    });
    const neither = rejected(parseToolInput(schema, { where: 5 }));
    expect(neither.issues[0]).toMatchObject({
      path: "where",
      expected: "string or object with fields lat, lon",
    });
  });

  it("previews long values instead of echoing them", () => {
    const long = "x".repeat(5_000);
    const result = rejected(parseToolInput(input, { query: "x", sort: long }));
    expect(result.issues[0]?.received).toBe(`string "${"x".repeat(40)}…" (5000 characters)`);
    expect(JSON.stringify(result.issues).length).toBeLessThan(500);
  });

  it("describes arrays and objects by shape", () => {
    const result = rejected(parseToolInput(input, { query: ["a", "b"], limit: { n: 1 } }));
    expect(result.issues.map((i) => i.received)).toEqual(["array of 2 items", "object with keys n"]);
  });

  it("rejects an input that is not an object, suggesting the required fields", () => {
    const result = rejected(parseToolInput(input, "aspirin"));
    expect(result.issues).toEqual([
      {
        path: "",
        expected: "object with fields query, limit, sort, exact, score, tags, filters, items, …",
        received: 'string "aspirin"',
        message: expect.stringMatching(/^input: expected object/),
      },
    ]);
    expect(result.suggestion).toBe(
      'Call the tool again with: {"query":"<query: string of at least 1 characters>"}. Replace each <field: type> placeholder with a real value.',
    );
  });

  it("passes a refinement's own message through", () => {
    const schema = z.object({ range: z.string().refine((v) => v.includes(".."), "use the form start..end") });
    const result = rejected(parseToolInput(schema, { range: "1-5" }));
    expect(result.issues[0]).toMatchObject({
      path: "range",
      message: 'range: use the form start..end (received string "1-5")',
    });
  });

  it("truncates a too-long string and trims a too-long array in the suggestion", () => {
    const schema = z.object({ code: z.string().max(3), ids: z.array(z.int()).max(2) });
    const result = rejected(parseToolInput(schema, { code: "ABCDE", ids: [1, 2, 3] }));
    expect(result.issues.map((i) => i.expected)).toEqual([
      "string of at most 3 characters",
      "array of integer of at most 2 items",
    ]);
    expect(result.suggestion).toBe('Call the tool again with: {"code":"ABC","ids":[1,2]}.');
  });

  it("rounds to a multiple", () => {
    const schema = z.object({ step: z.number().multipleOf(5) });
    const result = rejected(parseToolInput(schema, { step: 12 }));
    expect(result.issues[0]).toMatchObject({ expected: "a multiple of 5", received: "number 12" });
    expect(result.suggestion).toBe('Call the tool again with: {"step":10}.');
  });

  it("describes what to send when the corrected call would be too long", () => {
    const result = rejected(parseToolInput(input, { query: "q".repeat(2_000), limit: 0 }));
    expect(result.suggestion).toMatch(
      /^Fix limit \(integer between 1 and 100\)\. The tool takes an object with: query \(string of at least 1 characters, required\), limit/,
    );
  });

  it("lists at most three problems in the message", () => {
    const result = rejected(
      parseToolInput(input, { query: 1, limit: "x", sort: "y", exact: "z", score: "w" }),
    );
    expect(result.issues).toHaveLength(5);
    expect(result.message).toMatch(/; and 2 more$/);
  });

  it("reports what is still wrong after repairing the rest", () => {
    const result = rejected(parseToolInput(input, { query: "x", limit: "500", sort: null }));
    expect(result.issues.map((i) => i.message)).toEqual([
      "limit: expected integer between 1 and 100, received number 500",
    ]);
    expect(result.suggestion).toBe('Call the tool again with: {"query":"x","limit":100}.');
  });
});
