import type { StandardJSONSchemaV1 } from "@standard-schema/spec";
import * as z from "zod";
import type { JsonSchema, ToJsonSchemaOptions } from "./json-schema-types.js";
import { SchemaExportError } from "./schema-export-error.js";
import type { ToolSchema } from "./standard-schema.js";
import { fieldOf, mapSubschemas, type SchemaPath } from "./subschemas.js";
import { isZodSchema, type ZodSchema } from "./validate.js";

/** The formats JSON Schema 2020-12 defines; others (zod's "cuid", "starts_with" ...) are zod-only. */
const STANDARD_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uuid",
  "uri-template",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/**
 * Trims what zod adds for its own validation but a model does not need: the long regular expression
 * behind a standard format (`format: "date"` says it), a zod-only format name when a pattern says
 * the same, and the ±2^53 bounds of `z.int()`.
 */
function trimNoise(zodSchema: z.core.$ZodType, json: JsonSchema): void {
  const def = zodSchema._zod.def as { pattern?: unknown };
  if (typeof json.format === "string" && typeof json.pattern === "string") {
    if (!STANDARD_FORMATS.has(json.format)) delete json.format;
    else if (def.pattern instanceof RegExp && def.pattern.source === json.pattern) delete json.pattern;
  }
  if (json.type === "integer") {
    if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
    if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  }
}

/**
 * zod's own export. Input: with Quiver's trims, and a field-naming error for a type with no JSON
 * form. Output: lenient (a type with no JSON form is `{}`), as the output only documents the data.
 */
const zodJsonSchema = (schema: ZodSchema, io: "input" | "output"): JsonSchema => {
  if (io === "output")
    return z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    reused: "inline",
    cycles: "ref",
    unrepresentable: ({ path, message }) => {
      throw SchemaExportError.at(
        path,
        `has no JSON form (${message}). Tool inputs must be JSON: use z.iso.datetime() rather than z.date(), a string rather than z.bigint().`,
      );
    },
    override: ({ zodSchema, jsonSchema }) => trimNoise(zodSchema, jsonSchema as JsonSchema),
  }) as JsonSchema;
};

/** Standard JSON Schema's export (`~standard.jsonSchema`); the library's own error names the problem. */
const standardJsonSchema = (schema: ToolSchema, io: "input" | "output"): JsonSchema => {
  const { vendor, jsonSchema } = schema["~standard"] as StandardJSONSchemaV1.Props;
  try {
    return jsonSchema[io]({ target: "draft-2020-12" }) as JsonSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaExportError("", `Cannot export the ${io} schema (${vendor}): ${reason}`);
  }
};

/**
 * A tool schema as JSON Schema 2020-12, `$ref`s not yet inlined: zod through `z.toJSONSchema` (with
 * the zod-only trims), any other Standard Schema through its `~standard.jsonSchema`.
 */
export const exportJsonSchema = (schema: ToolSchema, io: "input" | "output"): JsonSchema =>
  isZodSchema(schema) ? zodJsonSchema(schema, io) : standardJsonSchema(schema, io);

/**
 * Converts a tool's input schema (zod or any Standard JSON Schema) to self-contained JSON Schema
 * 2020-12: the input side (fields with defaults are optional and keep `default`), descriptions kept,
 * `$ref`s inlined, no `$schema`, `omit`ted top-level properties removed and `add`ed ones appended.
 * The per-target exporters start from this.
 */
export function baseJsonSchema(schema: ToolSchema, options: ToJsonSchemaOptions = {}): JsonSchema {
  const { $schema: _schema, ...root } = inlineRefs(exportJsonSchema(schema, "input"));
  if (root.type !== "object") {
    const object = isZodSchema(schema) ? "a z.object" : "an object schema";
    const message = `Cannot export the input schema: a tool's input must be ${object}, not a union or a scalar.`;
    throw new SchemaExportError("", message);
  }
  const omit = options.omit ?? [];
  const add = Object.entries(options.add ?? {});
  if (omit.length === 0 && add.length === 0) return root;
  const properties = { ...root.properties };
  for (const name of omit) delete properties[name];
  for (const [name, property] of add) properties[name] = property;
  root.properties = properties;
  if (root.required) root.required = root.required.filter((name) => !omit.includes(name));
  return root;
}

const ROOT = "#";

function defName(ref: string): string {
  if (ref === ROOT) return ROOT;
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match?.[1])
    throw new SchemaExportError("", `Cannot export the input schema: unsupported $ref "${ref}".`);
  return decodeURIComponent(match[1]).replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Replaces every local `$ref` with a copy of its definition and drops `$defs`, so the schema is
 * self-contained (what MCP clients, OpenAI strict mode and Gemini handle best). A recursive type
 * cannot be inlined: it throws a `SchemaExportError` naming the field where the cycle closes.
 */
function inlineRefs(root: JsonSchema): JsonSchema {
  const defs = root.$defs ?? {};
  const { $defs: _defs, ...body } = root;

  const visit = (node: JsonSchema, path: SchemaPath, open: ReadonlySet<string>): JsonSchema => {
    if (typeof node.$ref !== "string") {
      return mapSubschemas(node, path, (child, childPath) => visit(child, childPath, open));
    }
    const { $ref, ...siblings } = node;
    const name = defName($ref);
    if (open.has(name)) {
      throw SchemaExportError.at(
        path,
        "is recursive (it contains itself). Tool schemas are sent inline, without $ref; replace the recursion with a fixed depth or a JSON string field.",
      );
    }
    const target = name === ROOT ? body : defs[name];
    if (!target)
      throw new SchemaExportError(
        fieldOf(path),
        `Cannot export the input schema: missing definition "${$ref}".`,
      );
    const inlined = visit(target, path, new Set(open).add(name));
    return { ...inlined, ...visit(siblings, path, open) };
  };

  return visit(body, [], new Set([ROOT]));
}
