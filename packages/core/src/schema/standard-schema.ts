import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import type * as z from "zod";
import type { ValuePath } from "./value-path.js";

/**
 * A zod 4 schema, from any copy of zod 4 (a plugin may bring its own). zod before 4.2 has no
 * `~standard.jsonSchema`; Quiver exports every zod schema with `z.toJSONSchema` anyway.
 */
export type ZodSchema = z.core.$ZodType;

/**
 * A schema a tool may use for its input or output: any Standard Schema (`~standard.validate`)
 * that can also export JSON Schema (Standard JSON Schema, `~standard.jsonSchema`), or a zod 4
 * schema. zod 4.2+ is both natively; valibot through `toStandardJsonSchema` of
 * `@valibot/to-json-schema`; ArkType 2; effect Schema through `Schema.standardSchemaV1`.
 *
 * @example
 * import * as v from "valibot";
 * import { toStandardJsonSchema } from "@valibot/to-json-schema";
 * const input: ToolSchema = toStandardJsonSchema(v.object({ query: v.string() }));
 */
export type ToolSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  (StandardJSONSchemaV1<Input, Output> | ZodSchema);

/** The type a tool schema accepts (`z.input`, `v.InferInput` ...). */
export type SchemaInput<S extends StandardSchemaV1> = StandardSchemaV1.InferInput<S>;

/** The type a tool schema produces (`z.output`, `v.InferOutput` ...). */
export type SchemaOutput<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;

/** True for a zod 4 schema (any copy): the repairs, suggestions and `z.toJSONSchema` export apply. */
export const isZodSchema = (schema: unknown): schema is ZodSchema =>
  typeof schema === "object" && schema !== null && "_zod" in schema;

/** True for a Standard Schema with a synchronous-or-not `~standard.validate`. */
export const isStandardSchema = (schema: unknown): schema is StandardSchemaV1 => {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return false;
  const props = (schema as { "~standard"?: { validate?: unknown } })["~standard"];
  return typeof props?.validate === "function";
};

/** True for a schema a tool can use: a Standard Schema that exports JSON Schema, or a zod 4 schema. */
export const isToolSchema = (schema: unknown): schema is ToolSchema => {
  if (!isStandardSchema(schema)) return false;
  if (isZodSchema(schema)) return true;
  const json = (schema["~standard"] as { jsonSchema?: { input?: unknown; output?: unknown } }).jsonSchema;
  return typeof json?.input === "function" && typeof json.output === "function";
};

/** One issue of a failed validation, its path flattened to keys. */
export interface SchemaIssue {
  readonly path: ValuePath;
  readonly message: string;
  /** The library's own issue (a `$ZodIssue` for zod). */
  readonly raw: StandardSchemaV1.Issue;
}

/** The outcome of `validateSync`. */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: ReadonlyArray<SchemaIssue> };

const pathOf = (issue: StandardSchemaV1.Issue): ValuePath =>
  (issue.path ?? []).map((segment) =>
    typeof segment === "object" && segment !== null ? segment.key : segment,
  );

/**
 * Validates through the schema's `~standard.validate`. Tool inputs and outputs are checked
 * synchronously: a schema whose validation is asynchronous (an async refinement; zod also turns a
 * check that throws into a rejected promise) is a defect and throws.
 */
export const validateSync = <S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): Validated<SchemaOutput<S>> => {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) {
    result.catch(() => {}); // nobody awaits it: the schema is refused below
    throw new TypeError(
      `A tool schema (${schema["~standard"].vendor}) validated asynchronously (an async refinement, or a check that threw); tool schemas must validate synchronously.`,
    );
  }
  if (!result.issues) return { ok: true, value: result.value as SchemaOutput<S> };
  return {
    ok: false,
    issues: result.issues.map((raw) => ({ path: pathOf(raw), message: raw.message, raw })),
  };
};
