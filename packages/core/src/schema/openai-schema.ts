import type { JsonSchema } from "./json-schema-types.js";
import { assertTyped } from "./schema-export-error.js";
import { hintValue, isRecordSchema, lengthHint, simplifyShapes, withHints } from "./simplify-schema.js";
import { mapSubschemas, type SchemaPath } from "./subschemas.js";

/** Keywords OpenAI strict mode accepts (Structured Outputs "supported schemas"); the rest are dropped. */
const SUPPORTED: ReadonlySet<string> = new Set([
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

/** String formats strict mode accepts; other formats move into the description. */
const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

const NULL: JsonSchema = { type: "null" };

function acceptsNull(node: JsonSchema): boolean {
  if (node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"))) return true;
  if (node.enum?.includes(null)) return true;
  return node.anyOf?.some(acceptsNull) ?? false;
}

/** Lets an optional field be `null`: strict mode lists every field in `required`. */
function nullable(node: JsonSchema): JsonSchema {
  if (acceptsNull(node)) return node;
  if (typeof node.type === "string" && node.type !== "object" && node.type !== "array") {
    return { ...node, type: [node.type, "null"], ...(node.enum ? { enum: [...node.enum, null] } : {}) };
  }
  if (node.anyOf && node.type === undefined) return { ...node, anyOf: [...node.anyOf, NULL] };
  const { description, ...rest } = node;
  return description === undefined ? { anyOf: [rest, NULL] } : { description, anyOf: [rest, NULL] };
}

/** A record cannot be strict (its keys are unknown): send it as `[{ key, value }]` instead. */
function recordAsEntries(node: JsonSchema): JsonSchema {
  const key = node.propertyNames ?? { type: "string" };
  const value = typeof node.additionalProperties === "object" ? node.additionalProperties : {};
  const entries: JsonSchema = {
    type: "array",
    items: { type: "object", properties: { key, value }, required: ["key", "value"] },
  };
  if (node.description !== undefined) entries.description = node.description;
  if ("default" in node) entries.default = node.default;
  return withHints(entries, ["a map, given as a list of {key, value} entries"]);
}

/** `type: ["string", "number"]` → `anyOf`; strict mode takes a type list only as `[T, "null"]`. */
function splitTypeList(node: JsonSchema): JsonSchema {
  if (!Array.isArray(node.type)) return node;
  const types = node.type.filter((t) => t !== "null");
  if (types.length <= 1) return node;
  const { type: _type, ...rest } = node;
  const members = types.map((t): JsonSchema => ({ type: t }));
  return { ...rest, anyOf: node.type.includes("null") ? [...members, NULL] : members };
}

function strict(input: JsonSchema, path: SchemaPath): JsonSchema {
  let node = simplifyShapes(input, path);
  if (isRecordSchema(node)) node = recordAsEntries(node);
  node = splitTypeList(node);
  assertTyped(node, path, "OpenAI strict mode");

  const hints: string[] = [];
  if ("default" in node) hints.push(`default: ${hintValue(node.default)}`);
  const length = lengthHint(node.minLength, node.maxLength);
  if (length) hints.push(length);
  if (typeof node.format === "string" && !FORMATS.has(node.format)) hints.push(`format: ${node.format}`);
  if (node.uniqueItems === true) hints.push("items must be unique");

  let out: JsonSchema = Object.fromEntries(
    Object.entries(withHints(node, hints)).filter(
      ([keyword, value]) => SUPPORTED.has(keyword) && !(keyword === "format" && !FORMATS.has(String(value))),
    ),
  );
  const isObject = out.type === "object" || (Array.isArray(out.type) && out.type.includes("object"));
  if (isObject) {
    out.properties ??= {};
    out.additionalProperties = false;
  }
  out = mapSubschemas(out, path, strict);
  if (isObject) {
    const required = new Set(out.required ?? []);
    const properties = Object.entries(out.properties ?? {});
    out.properties = Object.fromEntries(
      properties.map(([name, p]) => [name, required.has(name) ? p : nullable(p)]),
    );
    out.required = properties.map(([name]) => name);
  }
  return out;
}

/**
 * Rewrites a base input schema for OpenAI function calling with `strict: true`: every object closed
 * (`additionalProperties: false`) and listing every property in `required`, optional fields made
 * nullable, records sent as `[{ key, value }]`, and the keywords strict mode rejects (`default`,
 * `minLength`/`maxLength`, unsupported formats, `uniqueItems`) moved into the description.
 */
export const toOpenAiSchema = (base: JsonSchema): JsonSchema => strict(base, []);
