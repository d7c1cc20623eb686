import type { JsonSchema } from "./json-schema-types.js";

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
