import type { JsonSchema } from "./json-schema-types.js";
import { SchemaExportError } from "./schema-export-error.js";
import { fieldOf, mapSubschemas, type SchemaPath } from "./subschemas.js";

const ROOT = "#";

function defName(ref: string): string {
  if (ref === ROOT) return ROOT;
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match?.[1])
    throw new SchemaExportError("", `Cannot export the input schema: unsupported $ref "${ref}".`);
  return decodeURIComponent(match[1]).replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Replaces every local `$ref` with a copy of its definition and drops `$defs`, so the schema is
 * self-contained (what MCP clients, OpenAI strict mode and Gemini handle best). A recursive type
 * cannot be inlined: it throws a `SchemaExportError` naming the field where the cycle closes.
 */
export function inlineRefs(root: JsonSchema): JsonSchema {
  const defs = root.$defs ?? {};
  const { $defs: _defs, ...body } = root;

  const visit = (node: JsonSchema, path: SchemaPath, open: ReadonlySet<string>): JsonSchema => {
    if (typeof node.$ref !== "string") {
      return mapSubschemas(node, path, (child, childPath) => visit(child, childPath, open));
    }
    const { $ref, ...siblings } = node;
    const name = defName($ref);
    if (open.has(name)) {
      throw SchemaExportError.at(
        path,
        "is recursive (it contains itself). Tool schemas are sent inline, without $ref; replace the recursion with a fixed depth or a JSON string field.",
      );
    }
    const target = name === ROOT ? body : defs[name];
    if (!target)
      throw new SchemaExportError(
        fieldOf(path),
        `Cannot export the input schema: missing definition "${$ref}".`,
      );
    const inlined = visit(target, path, new Set(open).add(name));
    return { ...inlined, ...visit(siblings, path, open) };
  };

  return visit(body, [], new Set([ROOT]));
}
