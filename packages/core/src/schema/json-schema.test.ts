import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { toJsonSchema } from "./json-schema.js";
import type { JsonSchema, SchemaTarget } from "./json-schema-types.js";
import { parseToolInput } from "./repair.js";
import { SchemaExportError } from "./schema-export-error.js";

const Address = z.object({
  city: z.string().describe("City name"),
  zip: z
    .string()
    .regex(/^\d{5}$/)
    .optional()
    .describe("5-digit ZIP code"),
});

/** One input schema with every construct a tool uses. */
const input = z.object({
  query: z.string().min(1).max(200).describe("Free-text search"),
  limit: z.int().min(1).max(100).default(10).describe("Maximum number of results"),
  sort: z.enum(["relevance", "date"]).default("relevance").describe("Sort order"),
  source: z.literal("fda").describe("Data source"),
  score: z.number().gt(0).lte(1).optional().describe("Minimum relevance score"),
  since: z.iso.date().optional().describe("Earliest approval date"),
  contact: z.email().optional().describe("Where to send the report"),
  homepage: z.url().optional().describe("Manufacturer homepage"),
  tags: z.array(z.string()).max(5).optional().describe("Tags to match"),
  filters: z
    .object({
      date_from: z.iso.date().describe("Start of the date range"),
      routes: z
        .array(z.enum(["oral", "topical"]))
        .min(1)
        .describe("Routes of administration"),
      address: Address.nullable().describe("Manufacturer address"),
    })
    .optional()
    .describe("Structured filters"),
  target: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("drug"), name: z.string().describe("Drug name") }),
      z.object({
        kind: z.literal("device"),
        code: z.string().describe("Device product code"),
        class: z.int().min(1).max(3).optional().describe("Device class"),
      }),
    ])
    .describe("What to search for"),
  identifier: z.union([z.string(), z.number()]).optional().describe("Application number"),
  note: z.string().nullable().optional().describe("Free note"),
  headers: z.record(z.string(), z.string()).optional().describe("Extra request headers"),
  tenant: z.string().describe("Injected by the host"),
});

const DESCRIBED = [
  "query",
  "limit",
  "sort",
  "source",
  "score",
  "since",
  "contact",
  "homepage",
  "tags",
  "filters",
];

/** Valid calls, as a model following the MCP schema would send them (tenant is injected later). */
const examples = [
  { query: "aspirin", source: "fda", target: { kind: "drug", name: "aspirin" } },
  {
    query: "pacemaker",
    limit: 20,
    sort: "date",
    source: "fda",
    score: 0.5,
    since: "2020-01-31",
    contact: "qa@example.com",
    homepage: "https://example.com",
    tags: ["cardio"],
    filters: { date_from: "2021-02-03", routes: ["oral"], address: { city: "Boston", zip: "02115" } },
    target: { kind: "device", code: "DXY", class: 2 },
    identifier: 123456,
    note: null,
    headers: { "x-trace": "abc" },
  },
];

const targets: SchemaTarget[] = ["mcp", "anthropic", "openai", "gemini"];

/** Every schema node, with its location. */
function nodes(schema: JsonSchema, at = "#"): Array<[string, JsonSchema]> {
  const out: Array<[string, JsonSchema]> = [[at, schema]];
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && value && typeof value === "object") {
      for (const [name, child] of Object.entries(value))
        out.push(...nodes(child as JsonSchema, `${at}/properties/${name}`));
    } else if ((key === "anyOf" || key === "prefixItems") && Array.isArray(value)) {
      value.forEach((child, i) => {
        out.push(...nodes(child as JsonSchema, `${at}/${key}/${i}`));
      });
    } else if (
      (key === "items" || key === "additionalProperties" || key === "propertyNames") &&
      value &&
      typeof value === "object"
    ) {
      out.push(...nodes(value as JsonSchema, `${at}/${key}`));
    }
  }
  return out;
}

function prop(schema: JsonSchema, ...names: string[]): JsonSchema {
  let node = schema;
  for (const name of names) {
    const next =
      node.properties?.[name] ?? node.anyOf?.find((member) => member.properties?.[name])?.properties?.[name];
    if (!next) throw new Error(`no property ${name}`);
    node = next;
  }
  return node;
}

describe("toJsonSchema", () => {
  for (const target of targets) {
    describe(target, () => {
      const schema = toJsonSchema(input, target, { omit: ["tenant"] });

      it("matches the snapshot", () => {
        expect(schema).toMatchSnapshot();
      });

      it("has an object root, no $ref, $defs or $schema", () => {
        expect(schema.type).toBe("object");
        expect(schema.anyOf).toBeUndefined();
        expect(JSON.stringify(schema)).not.toMatch(/"\$(ref|defs|schema)"/);
      });

      it("leaves out the omitted field", () => {
        expect(schema.properties).not.toHaveProperty("tenant");
        expect(schema.required).not.toContain("tenant");
        expect(toJsonSchema(input, target).properties).toHaveProperty("tenant");
      });

      it("keeps every field's description", () => {
        for (const name of DESCRIBED) {
          const original = (input.shape[name as keyof typeof input.shape] as z.ZodType).description;
          expect(prop(schema, name).description, name).toContain(original);
        }
        expect(prop(schema, "filters", "date_from").description).toContain("Start of the date range");
        expect(prop(schema, "filters", "address", "city").description).toBe("City name");
      });

      it("does not keep zod's long format regexes", () => {
        expect(prop(schema, "since").pattern).toBeUndefined();
        expect(prop(schema, "filters", "address", "zip").pattern).toBe("^\\d{5}$");
      });
    });
  }

  describe("mcp", () => {
    const schema = toJsonSchema(input, "mcp", { omit: ["tenant"] });

    it("describes the input side: defaulted fields optional, with their default", () => {
      expect(schema.required).toEqual(["query", "source", "target"]);
      expect(prop(schema, "limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 10 });
      expect(prop(schema, "sort")).toMatchObject({ enum: ["relevance", "date"], default: "relevance" });
      expect(prop(schema, "since").format).toBe("date");
    });

    it("is valid JSON Schema 2020-12 that accepts the examples and rejects bad input", () => {
      const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
      addFormats.default(ajv);
      const validate = ajv.compile(schema);
      for (const example of examples) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...examples[0], limit: 1000 })).toBe(false);
      expect(validate({ ...examples[0], since: "31/01/2020" })).toBe(false);
      expect(validate({ query: "x", source: "fda" })).toBe(false);
    });

    it("is the same for anthropic", () => {
      expect(toJsonSchema(input, "anthropic", { omit: ["tenant"] })).toEqual(schema);
    });
  });

  describe("openai (strict mode)", () => {
    const schema = toJsonSchema(input, "openai", { omit: ["tenant"] });
    // Written out again on purpose: an independent copy of OpenAI's documented list, so a wrong
    // entry in openai-schema.ts fails here instead of being imported into the oracle.
    const supported = new Set([
      "type",
      "description",
      "enum",
      "properties",
      "required",
      "additionalProperties",
      "items",
      "anyOf",
      "pattern",
      "format",
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
      "multipleOf",
      "minItems",
      "maxItems",
    ]);

    it("closes every object and lists every property in required, at every depth", () => {
      const objects = nodes(schema).filter(([, node]) => node.type === "object");
      expect(objects.length).toBeGreaterThanOrEqual(6);
      for (const [at, node] of objects) {
        expect(node.additionalProperties, at).toBe(false);
        expect(node.required, at).toEqual(Object.keys(node.properties ?? {}));
      }
    });

    it("uses only keywords strict mode supports", () => {
      for (const [at, node] of nodes(schema)) {
        for (const keyword of Object.keys(node))
          expect(supported.has(keyword), `${at}: ${keyword}`).toBe(true);
        if (node.format)
          expect([
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid",
          ]).toContain(node.format);
      }
    });

    it("makes optional fields nullable and moves defaults and lengths into the description", () => {
      expect(prop(schema, "limit")).toEqual({
        type: ["integer", "null"],
        minimum: 1,
        maximum: 100,
        description: "Maximum number of results (default: 10)",
      });
      expect(prop(schema, "sort").enum).toEqual(["relevance", "date", null]);
      expect(prop(schema, "query")).toEqual({
        type: "string",
        description: "Free-text search (1-200 characters)",
      });
      expect(prop(schema, "filters").anyOf?.at(-1)).toEqual({ type: "null" });
      expect(prop(schema, "homepage").description).toBe("Manufacturer homepage (format: uri)");
      expect(prop(schema, "target", "class").type).toEqual(["integer", "null"]);
      expect(prop(schema, "note").type).toEqual(["string", "null"]);
    });

    it("sends a record as a list of {key, value} entries", () => {
      const headers = prop(schema, "headers");
      expect(headers.description).toContain("{key, value}");
      expect(headers.anyOf?.[0]).toEqual({
        type: "array",
        items: {
          type: "object",
          properties: { key: { type: "string" }, value: { type: "string" } },
          required: ["key", "value"],
          additionalProperties: false,
        },
      });
    });

    it("accepts what a strict-mode model sends, and parseToolInput turns it back", () => {
      const call = {
        query: "pacemaker",
        limit: null,
        sort: "date",
        source: "fda",
        score: null,
        since: null,
        contact: null,
        homepage: null,
        tags: null,
        filters: null,
        target: { kind: "device", code: "DXY", class: null },
        identifier: "NDA-1",
        note: null,
        headers: [{ key: "x-trace", value: "abc" }],
      };
      const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
      addFormats.default(ajv);
      expect(ajv.validate(schema, call), JSON.stringify(ajv.errors)).toBe(true);
      const parsed = parseToolInput(input.omit({ tenant: true }), call);
      expect(parsed.ok && parsed.value).toEqual({
        query: "pacemaker",
        limit: 10,
        sort: "date",
        source: "fda",
        target: { kind: "device", code: "DXY" },
        identifier: "NDA-1",
        note: null,
        headers: { "x-trace": "abc" },
      });
    });

    it("turns a tuple into a fixed-length array and const into enum", () => {
      const tuple = toJsonSchema(
        z.object({ point: z.tuple([z.number(), z.string()]), v: z.literal(3) }),
        "openai",
      );
      expect(prop(tuple, "point")).toMatchObject({
        type: "array",
        minItems: 2,
        maxItems: 2,
        items: { anyOf: [{ type: "number" }, { type: "string" }] },
      });
      expect(prop(tuple, "v")).toEqual({ type: "number", enum: [3] });
    });

    it("refuses an untyped field, naming it", () => {
      expect(() => toJsonSchema(z.object({ extra: z.object({ data: z.unknown() }) }), "openai")).toThrow(
        /"extra.data"/,
      );
      expect(toJsonSchema(z.object({ data: z.unknown() }), "mcp").properties?.data).toEqual({});
    });
  });

  describe("gemini", () => {
    const schema = toJsonSchema(input, "gemini", { omit: ["tenant"] });
    const supported = new Set([
      "type",
      "format",
      "description",
      "nullable",
      "enum",
      "properties",
      "required",
      "items",
      "anyOf",
      "minimum",
      "maximum",
      "minItems",
      "maxItems",
      "minLength",
      "maxLength",
      "pattern",
      "default",
    ]);

    it("uses only the OpenAPI subset Gemini accepts", () => {
      for (const [at, node] of nodes(schema)) {
        for (const keyword of Object.keys(node))
          expect(supported.has(keyword), `${at}: ${keyword}`).toBe(true);
        expect(typeof node.type === "string" || node.type === undefined, at).toBe(true);
        if (node.enum)
          expect(
            node.enum.every((v) => typeof v === "string"),
            at,
          ).toBe(true);
        if (node.format)
          expect(["date-time", "enum", "float", "double", "int32", "int64"]).toContain(node.format);
      }
    });

    it("marks null with nullable, keeps defaults, and describes what it drops", () => {
      expect(prop(schema, "note")).toEqual({ type: "string", nullable: true, description: "Free note" });
      expect(prop(schema, "filters", "address")).toMatchObject({ type: "object", nullable: true });
      expect(prop(schema, "limit").default).toBe(10);
      expect(prop(schema, "score")).toMatchObject({
        minimum: 0,
        maximum: 1,
        description: "Minimum relevance score (> 0)",
      });
      expect(prop(schema, "since").description).toBe("Earliest approval date (format: date)");
      expect(prop(schema, "source").enum).toEqual(["fda"]);
      expect(prop(schema, "identifier").anyOf).toEqual([{ type: "string" }, { type: "number" }]);
    });

    it("describes a record as a free-form object", () => {
      expect(prop(schema, "headers")).toEqual({
        type: "object",
        description: "Extra request headers (free-form map of string keys to string values)",
      });
    });

    it("keeps a numeric literal as its type, with the value in the description", () => {
      expect(prop(toJsonSchema(z.object({ v: z.literal(3) }), "gemini"), "v")).toEqual({
        type: "number",
        description: "(one of: 3)",
      });
    });
  });

  describe("inlining and errors", () => {
    it("inlines a schema registered with an id", () => {
      const Thing = z.object({ a: z.string() }).meta({ id: "Thing", description: "A thing" });
      for (const target of targets) {
        const schema = toJsonSchema(z.object({ x: Thing, y: Thing }), target);
        expect(JSON.stringify(schema)).not.toContain("$ref");
        expect(prop(schema, "y").description).toBe("A thing");
      }
    });

    it("refuses a recursive type with the field that recurses", () => {
      const Node = z.object({
        name: z.string(),
        get children() {
          return z.array(Node).optional();
        },
      });
      const schema = z.object({ tree: Node });
      for (const target of targets) {
        expect(() => toJsonSchema(schema, target)).toThrow(/field "tree\.children\[\]" is recursive/);
      }
      try {
        toJsonSchema(schema, "mcp");
      } catch (error) {
        expect(SchemaExportError.isInstance(error)).toBe(true);
        expect((error as SchemaExportError).field).toBe("tree.children[]");
      }
    });

    it("refuses a type with no JSON form, naming the field", () => {
      expect(() => toJsonSchema(z.object({ range: z.object({ from: z.date() }) }), "mcp")).toThrow(
        /"range.from" has no JSON form/,
      );
    });

    it("refuses a root that is not an object", () => {
      expect(() =>
        toJsonSchema(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), "mcp"),
      ).toThrow(SchemaExportError);
    });
  });
});
