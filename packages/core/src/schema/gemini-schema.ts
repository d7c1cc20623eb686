import type { JsonSchema } from "./json-schema-types.js";
import { assertTyped } from "./schema-export-error.js";
import { hintValue, isRecordSchema, simplifyShapes, typeName, withHints } from "./simplify-schema.js";
import { isSchema, mapSubschemas, type SchemaPath } from "./subschemas.js";

/** The fields of Gemini's `Schema` (a select subset of OpenAPI 3.0); the rest are dropped. */
const SUPPORTED: ReadonlySet<string> = new Set([
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

/** The formats Gemini accepts, by type; any other format moves into the description. */
const FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(["date-time", "enum"]),
  number: new Set(["float", "double"]),
  integer: new Set(["int32", "int64"]),
};

const isNullSchema = (node: JsonSchema): boolean => node.type === "null";

/** Replaces JSON Schema's null unions (`type: [T, "null"]`, `anyOf: [..., {type: "null"}]`) by `nullable`. */
function liftNull(input: JsonSchema): JsonSchema {
  let node = input;
  let nullable = false;
  if (Array.isArray(node.type)) {
    const types = node.type.filter((t) => t !== "null");
    nullable = types.length < node.type.length;
    const { type: _type, ...rest } = node;
    node =
      types.length === 1 ? { ...rest, type: types[0]! } : { ...rest, anyOf: types.map((t) => ({ type: t })) };
  }
  if (node.anyOf?.some(isNullSchema)) {
    nullable = true;
    const { anyOf, ...rest } = node;
    const members = anyOf.filter((member) => !isNullSchema(member));
    const only = members.length === 1 ? members[0] : undefined;
    const description = rest.description ?? only?.description;
    node = only ? { ...only, ...rest } : { ...rest, anyOf: members };
    if (description !== undefined) node.description = description;
  }
  if (node.enum?.includes(null)) {
    nullable = true;
    node = { ...node, enum: node.enum.filter((value) => value !== null) };
  }
  return nullable ? { ...node, nullable: true } : node;
}

function describeRecord(node: JsonSchema): JsonSchema {
  const keys =
    isSchema(node.propertyNames) && node.propertyNames.enum
      ? node.propertyNames.enum.map(hintValue).join(" | ")
      : "string";
  const values = isSchema(node.additionalProperties) ? typeName(node.additionalProperties) : "any";
  const out: JsonSchema = { type: "object" };
  if (node.description !== undefined) out.description = node.description;
  if ("default" in node) out.default = node.default;
  return withHints(out, [`free-form map of ${keys} keys to ${values} values`]);
}

function convert(input: JsonSchema, path: SchemaPath): JsonSchema {
  let node = simplifyShapes(input, path);
  if (isRecordSchema(node)) node = describeRecord(node);
  node = liftNull(node);
  assertTyped(node, path, "Gemini");

  const hints: string[] = [];
  if (node.enum && !node.enum.every((value) => typeof value === "string")) {
    hints.push(`one of: ${node.enum.map(hintValue).join(", ")}`);
    const { enum: _enum, ...rest } = node;
    node = rest;
  }
  const type = typeof node.type === "string" ? node.type : "";
  if (typeof node.format === "string" && !FORMATS[type]?.has(node.format)) {
    hints.push(`format: ${node.format}`);
    const { format: _format, ...rest } = node;
    node = rest;
  }
  if (typeof node.exclusiveMinimum === "number") {
    hints.push(`> ${node.exclusiveMinimum}`);
    node = { ...node, minimum: Math.max(node.exclusiveMinimum, Number(node.minimum ?? -Infinity)) };
  }
  if (typeof node.exclusiveMaximum === "number") {
    hints.push(`< ${node.exclusiveMaximum}`);
    node = { ...node, maximum: Math.min(node.exclusiveMaximum, Number(node.maximum ?? Infinity)) };
  }
  if (typeof node.multipleOf === "number") hints.push(`multiple of ${node.multipleOf}`);
  if (node.uniqueItems === true) hints.push("items must be unique");

  const out = Object.fromEntries(Object.entries(withHints(node, hints)).filter(([k]) => SUPPORTED.has(k)));
  return mapSubschemas(out, path, convert);
}

/**
 * Rewrites a base input schema as a Gemini function declaration's `parameters`: null unions become
 * `nullable`, `const` an `enum` of one, records a described free-form object, and the keywords
 * Gemini rejects (`additionalProperties`, exclusive bounds, non-string enums, unsupported formats)
 * are dropped or moved into the description.
 */
export const toGeminiSchema = (base: JsonSchema): JsonSchema => convert(base, []);
