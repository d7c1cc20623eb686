/**
 * A JSON Schema node as the exporters read and write it: the keywords Quiver touches are typed, any
 * other keyword passes through. Used for the return value of `toJsonSchema`.
 *
 * @example
 * const schema: JsonSchema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
 */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema | boolean;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  nullable?: boolean;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

/**
 * The model provider a tool's input schema is exported for.
 * - `mcp`: JSON Schema 2020-12 for an MCP `inputSchema`.
 * - `openai`: OpenAI function calling in strict mode (the Structured Outputs subset).
 * - `anthropic`: an Anthropic tool's `input_schema`.
 * - `gemini`: a Gemini function declaration's `parameters` (OpenAPI 3.0 subset).
 */
export type SchemaTarget = "mcp" | "openai" | "anthropic" | "gemini";

/** Options of `toJsonSchema`. */
export interface ToJsonSchemaOptions {
  /** Top-level properties to leave out: context-injected parameters the host fills, not the model. */
  readonly omit?: ReadonlyArray<string>;
  /** Optional top-level properties to append, e.g. the `confirmation_token` of a destructive tool. */
  readonly add?: Readonly<Record<string, JsonSchema>>;
}
