import type { JsonSchema } from "./json-schema-types.js";
import { fieldOf, type SchemaPath } from "./subschemas.js";

const marker = Symbol.for("@quiver/core/SchemaExportError");

/**
 * Thrown by `toJsonSchema` when a tool's input schema cannot be exported for a target: a recursive
 * type, a zod type with no JSON form (`z.date()`, `z.bigint()`, a function), or a root that is not
 * an object. `field` names the offending input field by dotted path ("" for the root).
 *
 * @example
 * try { toJsonSchema(tool.input, "openai") } catch (e) { if (SchemaExportError.isInstance(e)) console.error(e.field) }
 */
export class SchemaExportError extends Error {
  readonly [marker] = true;
  override readonly name = "SchemaExportError";
  /** The dotted path of the input field that cannot be exported ("" for the root). */
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }

  /** The error for the input field at a schema location: `Cannot export … field "<field>" <problem>`. */
  static at(path: SchemaPath, problem: string, target?: string): SchemaExportError {
    const field = fieldOf(path);
    const schema = target === undefined ? "the input schema" : `the input schema for ${target}`;
    return new SchemaExportError(field, `Cannot export ${schema}: field "${field || "(root)"}" ${problem}`);
  }

  /** True for a SchemaExportError from any copy of @quiver/core (survives duplicate installs). */
  static isInstance(value: unknown): value is SchemaExportError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

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
