import type * as z from "zod";
import { getAt, isPlainObject, type ValuePath } from "./value-path.js";

/** Any zod 4 schema (classic or mini). */
export type AnySchema = z.core.$ZodType;

/** A zod definition read loosely: `type` plus whatever that type keeps (shape, element, options ...). */
export type LooseDef = { readonly type: string; readonly [key: string]: unknown };

/** A check definition read loosely (`check: "greater_than"`, `value`, `inclusive` ...). */
export type LooseCheck = { readonly check: string; readonly [key: string]: unknown };

/** The definition of a schema. */
export const defOf = (schema: AnySchema): LooseDef => schema._zod.def as unknown as LooseDef;

/** The check definitions attached to a schema (`.min()`, `.max()`, `.regex()` ...), its own format first. */
export function checksOf(schema: AnySchema): LooseCheck[] {
  const def = defOf(schema);
  const own = typeof def.check === "string" ? [def as unknown as LooseCheck] : [];
  const checks = (def.checks as ReadonlyArray<AnySchema> | undefined) ?? [];
  return [...own, ...checks.map((check) => check._zod.def as unknown as LooseCheck)];
}

/** True when the checks make a number an integer (`z.int()`, `.int()`). */
export const isIntegerCheck = (check: LooseCheck): boolean =>
  check.check === "number_format" && String(check.format).includes("int");

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

/**
 * Strips the wrappers that do not change what a value looks like on input (optional, nullable,
 * default, readonly, catch, the input side of a pipe, lazy) and reports whether null is accepted.
 */
export function unwrap(schema: AnySchema): { readonly schema: AnySchema; readonly nullable: boolean } {
  let current = schema;
  let nullable = false;
  for (let depth = 0; depth < 32; depth++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) {
      if (def.type === "nullable") nullable = true;
      current = def.innerType as AnySchema;
    } else if (def.type === "pipe") {
      current = def.in as AnySchema;
    } else if (def.type === "lazy") {
      current = (def.getter as () => AnySchema)();
    } else {
      break;
    }
  }
  return { schema: current, nullable };
}

/** True when an object field may be left out (`.optional()`, `.default()`). */
export const isOptionalField = (schema: AnySchema): boolean => schema._zod.optin !== undefined;

/** True when a field left out takes a default value. */
export const hasDefault = (schema: AnySchema): boolean => schema._zod.optin === "defaulted";

/** The options of a union, or undefined. */
export function unionOptions(schema: AnySchema): ReadonlyArray<AnySchema> | undefined {
  const def = defOf(unwrap(schema).schema);
  return def.type === "union" ? (def.options as ReadonlyArray<AnySchema>) : undefined;
}

/** The option of a discriminated union that `value` selects, if any. */
function selectOption(def: LooseDef, value: unknown): AnySchema | undefined {
  const options = def.options as ReadonlyArray<AnySchema>;
  const discriminator = def.discriminator;
  if (typeof discriminator !== "string" || !isPlainObject(value)) return undefined;
  return options.find((option) => {
    const values = (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues?.[discriminator];
    return values?.has(value[discriminator]) ?? false;
  });
}

/** The schema of `container[key]`, following objects, arrays, tuples, records, unions and intersections. */
function childSchema(schema: AnySchema, key: PropertyKey, container: unknown): AnySchema | undefined {
  const def = defOf(unwrap(schema).schema);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, AnySchema>;
      return typeof key === "string" && Object.hasOwn(shape, key)
        ? shape[key]
        : (def.catchall as AnySchema | undefined);
    }
    case "array":
      return def.element as AnySchema;
    case "tuple":
      return typeof key === "number"
        ? ((def.items as AnySchema[])[key] ?? (def.rest as AnySchema | undefined))
        : undefined;
    case "record":
      return def.valueType as AnySchema;
    case "union": {
      const selected = selectOption(def, container);
      if (selected) return childSchema(selected, key, container);
      for (const option of def.options as ReadonlyArray<AnySchema>) {
        const kind = defOf(unwrap(option).schema).type;
        const fits = Array.isArray(container)
          ? kind === "array" || kind === "tuple"
          : kind === "object" || kind === "record";
        const child = fits ? childSchema(option, key, container) : undefined;
        if (child) return child;
      }
      return undefined;
    }
    case "intersection":
      return (
        childSchema(def.left as AnySchema, key, container) ??
        childSchema(def.right as AnySchema, key, container)
      );
    default:
      return undefined;
  }
}

/** The schema at `path` below `schema`, where `value` is the input at `schema`'s location. */
export function schemaAt(schema: AnySchema, path: ValuePath, value: unknown): AnySchema | undefined {
  let current: AnySchema | undefined = schema;
  let container = value;
  for (const key of path) {
    if (!current) return undefined;
    current = childSchema(current, key, container);
    container = getAt(container, [key]);
  }
  return current;
}

/** The field names an object schema declares (for "unknown field" messages), or the keys of an enum-keyed record. */
export function knownKeys(schema: AnySchema | undefined): string[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema).schema);
  if (def.type === "object") return Object.keys(def.shape as object);
  if (def.type === "record") {
    const values = (def.keyType as AnySchema)._zod.values;
    return values ? [...values].map(String) : [];
  }
  return [];
}
