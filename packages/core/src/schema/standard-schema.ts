import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { isZodSchema, type ZodSchema } from "./validate.js";

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
