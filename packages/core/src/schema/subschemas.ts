import type { JsonSchema } from "./json-schema-types.js";

/** One step into a JSON Schema: a keyword, and for maps and lists the key or index under it. */
export type SchemaPath = ReadonlyArray<string | number>;

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
const SCHEMA_SINGLES = [
  "items",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "unevaluatedItems",
  "unevaluatedProperties",
] as const;

/** True for a schema object (not a boolean schema, not an array). */
export const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Returns a shallow copy of `node` whose every direct subschema is replaced by `fn(child, path)`;
 * `path` is the child's location from the root. `fn` recurses if it wants to.
 */
export function mapSubschemas(
  node: JsonSchema,
  path: SchemaPath,
  fn: (child: JsonSchema, path: SchemaPath) => JsonSchema,
): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (!isSchema(map)) continue;
    const entries = Object.entries(map).map(([name, child]) => [
      name,
      isSchema(child) ? fn(child, [...path, key, name]) : child,
    ]);
    out[key] = Object.fromEntries(entries);
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    out[key] = list.map((child: unknown, i) =>
      isSchema(child) ? fn(child, [...path, key, i]) : child,
    ) as JsonSchema[];
  }
  for (const key of SCHEMA_SINGLES) {
    const child = node[key];
    if (isSchema(child)) out[key] = fn(child, [...path, key]);
  }
  return out;
}

/** Steps whose next step (an index, a definition's name) names no field. */
const INDEXED: ReadonlySet<string> = new Set(["anyOf", "oneOf", "allOf", "$defs", "definitions"]);

/**
 * The input field a schema location describes, as a dotted path a tool author recognises:
 * `["properties","filters","properties","tags","items"]` → `filters.tags[]`. Empty for the root.
 */
export function fieldOf(path: SchemaPath): string {
  let out = "";
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (step === "properties" || step === "patternProperties") {
      out += `${out ? "." : ""}${String(path[++i])}`;
    } else if (step === "items") {
      out += "[]";
    } else if (step === "prefixItems") {
      out += `[${String(path[++i])}]`;
    } else if (step === "additionalProperties") {
      out += "[*]";
    } else if (INDEXED.has(String(step))) {
      i++;
    }
  }
  return out;
}
