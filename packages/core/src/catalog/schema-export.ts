import { CONFIRMATION_FIELD } from "../call/call-input.js";
import { hiddenFields } from "../runtime/injected-fields.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { exportJsonSchema } from "../schema/base-json-schema.js";
import { toJsonSchema } from "../schema/json-schema.js";
import type { JsonSchema, SchemaTarget } from "../schema/json-schema-types.js";
import type { Catalog, ToolDescription } from "./catalog-types.js";
import { type Registry, toolInfo } from "./registry.js";

/** The catalog's schemas: tools described for a model provider, and the catalog as data. */
export type SchemaExport = Pick<Catalog, "describe" | "schemas" | "schemaErrors" | "export">;

type Exported = { readonly schema: Record<string, unknown> } | { readonly error: string };

/** The optional field a destructive tool's confirmation token is sent back in. */
const CONFIRMATION_PROPERTY: Readonly<Record<string, JsonSchema>> = {
  [CONFIRMATION_FIELD]: {
    description: "The token from this tool's preview; send it only after the user confirmed the action.",
    type: "string",
  },
};

/**
 * The model-facing input schema (hidden fields left out, a destructive tool's token field added), or
 * why it cannot be expressed for `target`.
 */
const modelSchema = (reg: RegisteredTool, target: SchemaTarget): Exported => {
  try {
    const options = {
      omit: hiddenFields(reg.tool),
      ...(reg.destructive ? { add: CONFIRMATION_PROPERTY } : {}),
    };
    return { schema: toJsonSchema(reg.tool.input, target, options) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

/** The output schema as documentation: what the library exports, or a note when it cannot. */
const outputJsonSchema = (reg: RegisteredTool): Record<string, unknown> => {
  try {
    return exportJsonSchema(reg.tool.output, "output");
  } catch (error) {
    return { description: `This tool's output schema cannot be exported: ${(error as Error).message}` };
  }
};

/**
 * Exports the registry's tools. A tool's input schema for a target, and its output schema, are pure
 * functions of the tool: computed once, kept as long as its registration (a re-registered tool is a
 * new one).
 */
export const createSchemaExport = (registry: Registry): SchemaExport => {
  const inputs = new WeakMap<RegisteredTool, Map<SchemaTarget, Exported>>();
  const exported = (reg: RegisteredTool, target: SchemaTarget): Exported => {
    const schemas = inputs.get(reg) ?? inputs.set(reg, new Map()).get(reg)!;
    return schemas.get(target) ?? schemas.set(target, modelSchema(reg, target)).get(target)!;
  };
  const outputs = new WeakMap<RegisteredTool, Record<string, unknown>>();
  const outputSchema = (reg: RegisteredTool): Record<string, unknown> =>
    outputs.get(reg) ?? outputs.set(reg, outputJsonSchema(reg)).get(reg)!;

  const describe = (name: string, target: SchemaTarget = "mcp"): ToolDescription | undefined => {
    const reg = registry.lookup(name);
    if (!reg) return undefined;
    const input = exported(reg, target);
    return {
      ...toolInfo(reg),
      name,
      inputSchema:
        "schema" in input
          ? input.schema
          : {
              type: "object",
              description: `This tool's input schema cannot be expressed for ${target}: ${input.error}`,
            },
      ...("error" in input ? { schemaError: input.error } : {}),
      outputSchema: outputSchema(reg),
      examples: reg.tool.examples ?? [],
      policy: reg.policy,
    };
  };

  return {
    describe,
    schemas: (target) =>
      [
        ...[...registry.tools()].map((reg) => ({ name: reg.name, reg })),
        ...registry.liveAliases().map((a) => ({ name: a.alias, reg: a.reg })),
      ].flatMap(({ name, reg }) => {
        const input = exported(reg, target);
        return "schema" in input
          ? [{ name, description: reg.tool.description, parameters: input.schema }]
          : [];
      }),
    schemaErrors: (target) =>
      [...registry.tools()].flatMap((reg) => {
        const input = exported(reg, target);
        return "error" in input ? [{ tool: reg.name, message: input.error }] : [];
      }),
    export: (target = "mcp") => {
      const described = registry.names().map((n) => describe(n, target)!);
      return {
        plugins: [...registry.plugins()].map((p) => p.info),
        categories: [...new Set(described.map((t) => t.category))].sort(),
        tools: described,
      };
    },
  };
};
