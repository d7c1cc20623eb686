import type { JsonSchema } from "./json-schema-types.js";
import { SchemaExportError } from "./schema-export-error.js";
import type { SchemaPath } from "./subschemas.js";

/**
 * Throws when a node says nothing about its type (`z.any()`, `z.unknown()`): OpenAI strict mode and
 * Gemini need a type for every value. MCP and Anthropic accept such fields.
 */
export function assertTyped(node: JsonSchema, path: SchemaPath, target: string): void {
  if (node.type !== undefined || node.anyOf !== undefined || node.enum !== undefined) return;
  throw SchemaExportError.at(
    path,
    "has no type (z.any() or z.unknown()). Give it a concrete type, or a JSON string the tool parses itself.",
    target,
  );
}
