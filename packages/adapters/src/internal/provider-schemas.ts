import type { Catalog, ToolInfo } from "@quiver/core";

/** One tool's model-facing definition for a provider, or why it could not be exported. */
export interface ExportedTool {
  readonly info: ToolInfo;
  readonly parameters: Record<string, unknown>;
  /** False when the provider's strict form could not be built and the plain JSON Schema is used. */
  readonly strict: boolean;
}

/** Called for a tool whose schema has no strict form for the target (it is sent non-strict). */
export type SchemaErrorHandler = (tool: string, error: Error) => void;

/**
 * Every selected tool's input schema in a provider's format. One tool whose schema cannot be
 * exported strictly (an untyped field under OpenAI strict mode) does not take the others down: it
 * falls back to its plain JSON Schema, sent with `strict: false`.
 */
export const exportTools = (
  catalog: Catalog,
  target: "openai" | "anthropic" | "gemini" | "mcp",
  filter: ((tool: ToolInfo) => boolean) | undefined,
  onSchemaError: SchemaErrorHandler | undefined,
): ExportedTool[] => {
  const out: ExportedTool[] = [];
  for (const info of catalog.list()) {
    if (filter && !filter(info)) continue;
    const described = catalog.describe(info.name, target)!;
    if (described.schemaError === undefined) {
      out.push({ info, parameters: described.inputSchema, strict: true });
      continue;
    }
    onSchemaError?.(info.name, new Error(described.schemaError));
    const plain = catalog.describe(info.name, "mcp")!;
    if (plain.schemaError === undefined) out.push({ info, parameters: plain.inputSchema, strict: false });
  }
  return out;
};
