import { formatPath, isPlainObject, type ValuePath } from "./value-path.js";
import { type AnySchema, defOf, schemaAt, unwrap } from "./zod-introspect.js";

const MAX_REPORTED = 10;

function walk(schema: AnySchema, value: unknown, path: ValuePath, out: string[]): void {
  if (out.length >= MAX_REPORTED) return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      if (typeof item !== "object" || item === null) continue;
      const child = schemaAt(schema, [i], value);
      if (child) walk(child, item, [...path, i], out);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const def = defOf(unwrap(schema).schema);
  const isObject = def.type === "object";
  const stripping = isObject && def.catchall === undefined;
  const shape = (def.shape ?? {}) as Record<string, AnySchema>;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    if (stripping && !Object.hasOwn(shape, key)) {
      if (out.length < MAX_REPORTED) out.push(formatPath([...path, key]));
      continue;
    }
    // Only containers can hold unknown fields: scalars need no schema lookup.
    if (typeof item !== "object" || item === null) continue;
    const child = isObject ? (shape[key] ?? (def.catchall as AnySchema)) : schemaAt(schema, [key], value);
    if (child) walk(child, item, [...path, key], out);
  }
}

/**
 * The fields of `value` that `schema` would drop without a word: keys of a plain `z.object` (which
 * strips what it does not declare) that it does not declare, by dotted path, at most ten. Strict
 * objects refuse such keys and loose ones keep them, so neither is reported.
 *
 * @example
 * unknownFields(z.object({ query: z.string() }), { query: "a", limit: 5 }) // ["limit"]
 */
export function unknownFields(schema: AnySchema, value: unknown): string[] {
  const out: string[] = [];
  walk(schema, value, [], out);
  return out;
}
