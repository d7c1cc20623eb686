import type { Catalog, ToolInfo } from "@quiver/core";
import { toMcpAnnotations } from "./annotations.js";
import { envelopeOutputSchema } from "./envelope-schema.js";

type ObjectSchema = { type: "object"; [k: string]: unknown };

/** A catalog tool as tools/list serves it, built once per catalog change. */
export interface ListedTool {
  readonly info: ToolInfo;
  readonly definition: {
    name: string;
    title?: string;
    description: string;
    inputSchema: ObjectSchema;
    outputSchema: ObjectSchema;
    annotations: ReturnType<typeof toMcpAnnotations>;
    _meta: Record<string, unknown>;
  };
}

/** Reports a tool whose schema could not be exported (it is left out of tools/list). */
export type SchemaErrorReporter = (tool: string, error: Error) => void;

interface Cache {
  listing: Map<string, ListedTool> | undefined;
}

// One listing per catalog, shared by every server over it (one per session, or per request), and
// rebuilt only after the catalog changed: schema export is the costly part of tools/list and of
// each tools/call.
const caches = new WeakMap<Catalog, Cache>();

const build = (catalog: Catalog, report: SchemaErrorReporter): Map<string, ListedTool> => {
  const listing = new Map<string, ListedTool>();
  for (const info of catalog.list()) {
    try {
      const d = catalog.describe(info.name, "mcp")!;
      if (d.schemaError !== undefined) throw new Error(d.schemaError);
      const title = d.title ?? d.annotations.title;
      listing.set(info.name, {
        info,
        definition: {
          name: d.name,
          ...(title ? { title } : {}),
          description: d.description,
          inputSchema: d.inputSchema as ObjectSchema,
          outputSchema: envelopeOutputSchema(d.outputSchema) as ObjectSchema,
          annotations: toMcpAnnotations(d.annotations, title),
          _meta: {
            "quiver/plugin": d.plugin,
            "quiver/category": d.category,
            "quiver/available": d.available,
          },
        },
      });
    } catch (error) {
      report(info.name, error instanceof Error ? error : new Error(String(error)));
    }
  }
  return listing;
};

/** The catalog's tools as served over MCP, from the per-catalog cache. */
export const toolListing = (catalog: Catalog, report: SchemaErrorReporter): Map<string, ListedTool> => {
  let cache = caches.get(catalog);
  if (!cache) {
    const fresh: Cache = { listing: undefined };
    catalog.onChange(() => {
      fresh.listing = undefined;
    });
    caches.set(catalog, fresh);
    cache = fresh;
  }
  cache.listing ??= build(catalog, report);
  return cache.listing;
};

/** The default reporter: one line on stderr (never stdout, which carries the stdio protocol). */
export const stderrReporter: SchemaErrorReporter = (tool, error) => {
  process.stderr.write(`quiver mcp: tool "${tool}" is left out of tools/list: ${error.message}\n`);
};
