import type { Catalog, ToolResult } from "@quiver/core";

/** An alias set a catalog's plugins declare (the `aliasSets` slot), as a host offers it. */
export interface OfferedAliasSet {
  readonly name: string;
  /** The plugin that declares it. */
  readonly plugin: string;
  readonly description?: string;
  /** Alias → the catalog tool it stands for. */
  readonly tools: Readonly<Record<string, string>>;
}

/** One aliased tool as the MCP server serves it. */
export interface ServedAlias {
  readonly alias: string;
  /** The catalog tool it runs. */
  readonly tool: string;
  /** Alias parameter → the tool's parameter (identity pairs left out). */
  readonly toTool: ReadonlyMap<string, string>;
  /** The tool's parameter → alias parameter. */
  readonly toAlias: ReadonlyMap<string, string>;
}

/**
 * The alias sets turned on for a server, resolved over the catalog: aliases by name and by the tool
 * they stand for, and the text renaming that makes descriptions, messages and suggestions speak
 * the alias names.
 */
export interface ServedAliases {
  readonly byAlias: ReadonlyMap<string, ServedAlias>;
  readonly byTool: ReadonlyMap<string, ServedAlias>;
  /** Renames tool names (every aliased tool's) and, with `alias`, that tool's parameter names in text. */
  readonly text: (text: string, alias?: ServedAlias) => string;
}

/**
 * The alias sets a catalog's plugins declare, in registration order.
 *
 * @example
 * availableAliasSets(catalog).map((s) => s.name) // ["context7-mcp"]
 */
export const availableAliasSets = (catalog: Catalog): OfferedAliasSet[] =>
  catalog.plugins().flatMap((p) =>
    (p.slots?.aliasSets ?? []).map((s) => ({
      name: s.name,
      plugin: p.id,
      ...(s.description ? { description: s.description } : {}),
      tools: Object.fromEntries(s.tools.map((t) => [t.alias, t.tool])),
    })),
  );

/**
 * The names in `names` that no plugin of the catalog declares as an alias set (empty: all known).
 *
 * @example
 * unknownAliasSets(catalog, ["context7-mcp", "nope"]) // ["nope"]
 */
export const unknownAliasSets = (catalog: Catalog, names: ReadonlyArray<string>): string[] => {
  const known = new Set(availableAliasSets(catalog).map((s) => s.name));
  return names.filter((n) => !known.has(n));
};

// A parameter name is renamed in prose only when it reads as an identifier (`library_id`,
// `libraryName`): a plain word such as `query` or `text` is left alone, since rewriting it would
// change ordinary sentences.
const IDENTIFIER = /[_A-Z0-9]/;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordRe = (words: ReadonlyArray<string>) =>
  words.length === 0
    ? undefined
    : new RegExp(
        `(?<![A-Za-z0-9_-])(${[...words]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join("|")})(?![A-Za-z0-9_-])`,
        "g",
      );

const replacer = (pairs: ReadonlyMap<string, string>) => {
  const re = wordRe([...pairs.keys()]);
  return (text: string) => (re ? text.replace(re, (m) => pairs.get(m) ?? m) : text);
};

/**
 * Resolves the alias sets named in `names` over the catalog's plugins (a set no plugin declares, or
 * an alias for a tool the catalog does not have, is left out: the host checks names at start). Two
 * sets aliasing one tool: the first wins.
 */
export const serveAliases = (catalog: Catalog, names: ReadonlyArray<string>): ServedAliases => {
  const byAlias = new Map<string, ServedAlias>();
  const byTool = new Map<string, ServedAlias>();
  for (const plugin of catalog.plugins())
    for (const set of plugin.slots?.aliasSets ?? []) {
      if (!names.includes(set.name)) continue;
      for (const t of set.tools) {
        if (byTool.has(t.tool) || byAlias.has(t.alias) || !catalog.has(t.tool)) continue;
        const pairs = Object.entries(t.parameters ?? {}).filter(([a, p]) => a !== p);
        const served: ServedAlias = {
          alias: t.alias,
          tool: t.tool,
          toTool: new Map(pairs),
          toAlias: new Map(pairs.map(([a, p]) => [p, a])),
        };
        byAlias.set(t.alias, served);
        byTool.set(t.tool, served);
      }
    }
  const toolNames = replacer(new Map([...byTool].map(([tool, a]) => [tool, a.alias])));
  const paramNames = new Map<ServedAlias, (text: string) => string>();
  for (const a of byTool.values())
    paramNames.set(a, replacer(new Map([...a.toAlias].filter(([p, al]) => IDENTIFIER.test(p + al)))));
  return {
    byAlias,
    byTool,
    text: (text, alias) => {
      const renamed = toolNames(text);
      return alias ? (paramNames.get(alias)?.(renamed) ?? renamed) : renamed;
    },
  };
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The arguments of a call by an alias, with the alias's parameter names turned into the tool's. */
export const argumentsForTool = (alias: ServedAlias, args: unknown): unknown =>
  isObject(args)
    ? Object.fromEntries(Object.entries(args).map(([k, v]) => [alias.toTool.get(k) ?? k, v]))
    : args;

/**
 * A tool's input schema under its alias: top-level properties and `required` renamed, and every
 * `description` in it speaking the alias names.
 */
export const aliasInputSchema = (
  schema: Readonly<Record<string, unknown>>,
  alias: ServedAlias,
  aliases: ServedAliases,
): Record<string, unknown> => {
  const describe = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(describe);
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === "description" && typeof v === "string" ? aliases.text(v, alias) : describe(v),
      ]),
    );
  };
  const out = describe(schema) as Record<string, unknown>;
  if (isObject(out.properties))
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [alias.toAlias.get(k) ?? k, v]),
    );
  if (Array.isArray(out.required))
    out.required = out.required.map((k) => (typeof k === "string" ? (alias.toAlias.get(k) ?? k) : k));
  return out;
};

/**
 * The envelope of a call made by an alias, its prose speaking the alias names (message, error,
 * suggestion, instruction, guidance, repairs); the data is the tool's, unchanged.
 */
export const aliasEnvelope = (
  envelope: ToolResult,
  alias: ServedAlias,
  aliases: ServedAliases,
): ToolResult => {
  const t = (s: string) => aliases.text(s, alias);
  const { message, instruction, suggestion, guidance, error, metadata } = envelope;
  return {
    ...envelope,
    message: t(message),
    ...(instruction !== undefined ? { instruction: t(instruction) } : {}),
    ...(suggestion !== undefined ? { suggestion: t(suggestion) } : {}),
    ...(guidance !== undefined ? { guidance: t(guidance) } : {}),
    ...(error ? { error: { ...error, message: t(error.message) } } : {}),
    metadata: { ...metadata, ...(metadata.repairs ? { repairs: metadata.repairs.map(t) } : {}) },
  } as ToolResult;
};
