import { baseJsonSchema } from "./base-json-schema.js";
import type { JsonSchema } from "./json-schema-types.js";
import { isRecordSchema } from "./simplify-schema.js";
import type { ToolSchema } from "./standard-schema.js";
import { isSchema } from "./subschemas.js";
import { fieldLabel, formatPath, isPlainObject, type ValuePath } from "./value-path.js";

/** Each schema's base JSON Schema, worked out on the first input that needs it (null: none). */
const bases = new WeakMap<object, JsonSchema | null>();

const baseOf = (schema: ToolSchema): JsonSchema | null => {
  if (!bases.has(schema)) {
    try {
      bases.set(schema, baseJsonSchema(schema));
    } catch {
      bases.set(schema, null);
    }
  }
  return bases.get(schema) ?? null;
};

const acceptsNull = (node: JsonSchema): boolean =>
  node.type === "null" ||
  (Array.isArray(node.type) && node.type.includes("null")) ||
  node.enum?.includes(null) === true ||
  (node.anyOf ?? node.oneOf)?.some(acceptsNull) === true ||
  (node.type === undefined &&
    node.anyOf === undefined &&
    node.oneOf === undefined &&
    node.enum === undefined);

const isEntry = (item: unknown): item is { key: string; value: unknown } =>
  isPlainObject(item) && typeof item.key === "string" && "value" in item && Object.keys(item).length === 2;

/** Undoes the encoding at one node; returns the decoded value (objects and arrays are copies). */
const decode = (node: JsonSchema, value: unknown, path: ValuePath, notes: string[]): unknown => {
  const at = fieldLabel(path);
  if (Array.isArray(value) && isRecordSchema(node) && value.every(isEntry)) {
    notes.push(`${at}: converted a list of {key, value} entries into an object`);
    const values = isSchema(node.additionalProperties) ? node.additionalProperties : {};
    return Object.fromEntries(value.map((e) => [e.key, decode(values, e.value, [...path, e.key], notes)]));
  }
  if (Array.isArray(value) && isSchema(node.items)) {
    const items = node.items;
    return value.map((item, i) => decode(items, item, [...path, i], notes));
  }
  if (!isPlainObject(value) || node.properties === undefined) return value;
  const required = new Set(node.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const property = node.properties[key];
    if (!property) {
      out[key] = child;
    } else if (child === null && !required.has(key) && !acceptsNull(property)) {
      notes.push(
        `${formatPath([...path, key])}: null for an optional field, treated as absent (OpenAI strict mode sends null)`,
      );
    } else {
      out[key] = decode(property, child, [...path, key], notes);
    }
  }
  return out;
};

/**
 * Undoes the encoding `toJsonSchema(schema, "openai")` asks a strict-mode model for, read off the
 * schema's JSON Schema so it works for any library: `null` for an optional field that does not
 * accept null is left out, and `[{ key, value }]` for a record becomes the object. For non-zod
 * schemas (a zod schema gets the same through its repairs); undefined when nothing was encoded.
 */
export const decodeStrictEncoding = (
  schema: ToolSchema,
  input: unknown,
): { readonly value: unknown; readonly notes: ReadonlyArray<string> } | undefined => {
  const base = baseOf(schema);
  if (!base) return undefined;
  const notes: string[] = [];
  const value = decode(base, input, [], notes);
  return notes.length > 0 ? { value, notes } : undefined;
};
