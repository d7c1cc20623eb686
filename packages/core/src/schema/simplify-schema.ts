import type { JsonSchema } from "./json-schema-types.js";
import { SchemaExportError } from "./schema-export-error.js";
import { isSchema, type SchemaPath } from "./subschemas.js";

/** True for a `z.record` / catch-all map: an object whose keys are not listed but described. */
export function isRecordSchema(node: JsonSchema): boolean {
  const listed = node.properties !== undefined && Object.keys(node.properties).length > 0;
  return (
    node.type === "object" && !listed && (isSchema(node.additionalProperties) || isSchema(node.propertyNames))
  );
}

/** A short name of a schema's type for descriptions ("string", "number", "object", "any"). */
export function typeName(node: JsonSchema): string {
  if (Array.isArray(node.type)) return node.type.join(" or ");
  if (typeof node.type === "string") return node.type;
  if (node.anyOf ?? node.oneOf) return (node.anyOf ?? node.oneOf ?? []).map(typeName).join(" or ");
  if (node.enum) return "enum";
  return "any";
}

/**
 * Rewrites the shapes the provider subsets lack into ones they have: `oneOf` → `anyOf`, `const` →
 * a one-value `enum`, an `allOf` of objects → one merged object, a tuple (`prefixItems`) → an array
 * of the union of its item types with fixed length. Only this node; the caller recurses.
 */
export function simplifyShapes(input: JsonSchema, path: SchemaPath): JsonSchema {
  let node = input;
  if (node.oneOf) {
    const { oneOf, ...rest } = node;
    node = { ...rest, anyOf: [...(rest.anyOf ?? []), ...oneOf] };
  }
  if ("const" in node) {
    const { const: value, ...rest } = node;
    node = { ...rest, enum: [value] };
  }
  if (node.allOf) node = mergeAllOf(node, path);
  if (node.prefixItems) node = tupleToArray(node);
  return node;
}

function mergeAllOf(node: JsonSchema, path: SchemaPath): JsonSchema {
  const { allOf = [], ...rest } = node;
  const parts = [rest, ...allOf].filter((part) => Object.keys(part).length > 0);
  if (!parts.every((part) => part.type === "object" || (part.type === undefined && part.properties))) {
    throw SchemaExportError.at(path, "is an intersection of non-object types.");
  }
  const merged: JsonSchema = { ...rest, type: "object", properties: {}, required: [] };
  for (const part of parts) {
    Object.assign(merged.properties as object, part.properties);
    for (const name of part.required ?? []) if (!merged.required?.includes(name)) merged.required?.push(name);
    if (part.additionalProperties === false) merged.additionalProperties = false;
  }
  return merged;
}

function tupleToArray(node: JsonSchema): JsonSchema {
  const { prefixItems = [], items, ...rest } = node;
  const members = isSchema(items) ? [...prefixItems, items] : prefixItems;
  // One member per JSON form, in the order they first appear.
  const distinct = [...new Map(members.map((member) => [JSON.stringify(member), member])).values()];
  const order = `ordered as [${prefixItems.map(typeName).join(", ")}${isSchema(items) ? ", ..." : ""}]`;
  const note = rest.description ? `${rest.description} (${order})` : `(${order})`;
  return {
    ...rest,
    type: "array",
    description: note,
    items: distinct.length === 1 ? distinct[0]! : { anyOf: distinct },
  };
}

/** A value as a model reads it in a description: JSON, shortened if long. */
export function hintValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Moves keywords a target cannot express into the description, so the model still learns them:
 * `{ description: "Max results", hints: ["default: 10"] }` → "Max results (default: 10)".
 */
export function withHints(node: JsonSchema, hints: ReadonlyArray<string>): JsonSchema {
  if (hints.length === 0) return node;
  const note = `(${hints.join("; ")})`;
  return { ...node, description: node.description ? `${node.description} ${note}` : note };
}

/** Hints for string length bounds ("1-200 characters", "at most 5 characters"). */
export function lengthHint(min: unknown, max: unknown): string | undefined {
  const lo = typeof min === "number" && min > 0 ? min : undefined;
  const hi = typeof max === "number" ? max : undefined;
  if (lo !== undefined && hi !== undefined)
    return lo === hi ? `exactly ${lo} characters` : `${lo}-${hi} characters`;
  if (lo !== undefined) return `at least ${lo} characters`;
  if (hi !== undefined) return `at most ${hi} characters`;
  return undefined;
}
