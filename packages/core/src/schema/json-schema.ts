import { baseJsonSchema } from "./base-json-schema.js";
import { toGeminiSchema } from "./gemini-schema.js";
import type { JsonSchema, SchemaTarget, ToJsonSchemaOptions } from "./json-schema-types.js";
import { toOpenAiSchema } from "./openai-schema.js";
import type { ToolSchema } from "./standard-schema.js";

/** The rewrite of the base schema per target (MCP and Anthropic take it as it is). */
const FOR_TARGET: Readonly<Record<SchemaTarget, (base: JsonSchema) => JsonSchema>> = {
  mcp: (base) => base,
  anthropic: (base) => base,
  openai: toOpenAiSchema,
  gemini: toGeminiSchema,
};

/**
 * Exports a tool's input schema (zod, or any Standard Schema with `~standard.jsonSchema`: valibot,
 * ArkType, effect Schema) as the JSON Schema a model provider expects. Descriptions and defaults are
 * kept (as keywords, or in the description where the target has no keyword for them), `$ref`s are
 * inlined, `omit` leaves out top-level fields the host injects and `add` appends optional ones.
 *
 * - `mcp`, `anthropic`: JSON Schema 2020-12, input side (defaulted fields optional, `default` kept).
 * - `openai`: strict mode. Every object closed and fully `required`; optional fields nullable;
 *   `default`, `minLength`/`maxLength` and unsupported formats moved into the description;
 *   records sent as `[{ key, value }]` (`parseToolInput` turns them back into objects).
 * - `gemini`: OpenAPI 3.0 subset with `nullable`; records become a described free-form object.
 *
 * Throws `SchemaExportError` naming the field for a recursive type, a zod type with no JSON form,
 * a non-object root, or (openai, gemini) an untyped field; for a non-zod schema, also when its
 * library cannot export it (the library's message, field "").
 *
 * @example
 * const parameters = toJsonSchema(searchDrugs.input, "openai", { omit: ["tenant"] });
 * const tool = { type: "function", name: "fda_search_drugs", parameters, strict: true };
 */
export function toJsonSchema(
  schema: ToolSchema,
  target: SchemaTarget,
  options: ToJsonSchemaOptions = {},
): JsonSchema {
  return FOR_TARGET[target](baseJsonSchema(schema, options));
}
