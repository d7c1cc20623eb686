import type { Catalog, ToolInfo } from "@quiver/core";
import { aliasInputSchema, type ServedAliases, serveAliases } from "../alias-sets.js";
import { toMcpAnnotations } from "./annotations.js";
import { envelopeOutputSchema } from "./envelope-schema.js";
import { TOOL_DIGEST_META_KEY, toolDigest } from "./tool-digest.js";

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

/** The definition with its digest in `_meta` (of what it is served as: its alias's text too). */
const withDigest = (definition: ListedTool["definition"]): ListedTool["definition"] => ({
  ...definition,
  _meta: { ...definition._meta, [TOOL_DIGEST_META_KEY]: toolDigest(definition) },
});

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
        definition: withDigest({
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
        }),
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

/** The listing as served with alias sets on: by served name (an alias, or the tool's own name). */
export interface AliasedListing {
  readonly aliases: ServedAliases;
  readonly tools: ReadonlyMap<string, ListedTool>;
}

// Per listing (rebuilt when the catalog changes) and set names: the renamed schemas are made once.
const aliased = new WeakMap<Map<string, ListedTool>, Map<string, AliasedListing>>();

/**
 * The catalog's listing under the alias sets in `names`: each aliased tool under its alias, with
 * its input schema and description in the alias's names; every other description naming aliased
 * tools by their aliases. The listing itself when no set is on.
 */
export const aliasedListing = (
  catalog: Catalog,
  listing: Map<string, ListedTool>,
  names: ReadonlyArray<string>,
): AliasedListing => {
  const key = names.join("\u0000");
  let byNames = aliased.get(listing);
  if (!byNames) {
    byNames = new Map();
    aliased.set(listing, byNames);
  }
  let found = byNames.get(key);
  if (found) return found;
  const aliases = serveAliases(catalog, names);
  const tools = new Map<string, ListedTool>();
  for (const t of listing.values()) {
    const alias = aliases.byTool.get(t.info.name);
    if (!alias && aliases.byTool.size === 0) {
      tools.set(t.info.name, t);
      continue;
    }
    const definition = withDigest({
      ...t.definition,
      description: aliases.text(t.definition.description, alias),
      ...(alias
        ? {
            name: alias.alias,
            inputSchema: aliasInputSchema(t.definition.inputSchema, alias, aliases) as ObjectSchema,
          }
        : {}),
    });
    tools.set(definition.name, { info: t.info, definition });
  }
  found = { aliases, tools };
  byNames.set(key, found);
  return found;
};
