import type { Catalog } from "@quiver/core";
import { serveAliases } from "../alias-sets.js";

/**
 * The server's instructions: the host's own (`base`, e.g. how to find a tool), then each plugin's
 * paragraph (its `instructions` slot: when to use its tools, and when not), one paragraph each, in
 * registration order, naming aliased tools by their alias when `aliasSets` are on. Undefined when
 * there is nothing to say.
 */
export const serverInstructions = (
  base: string | undefined,
  catalog: Catalog,
  aliasSets: ReadonlyArray<string> = [],
): string | undefined => {
  const paragraphs = [base, ...catalog.plugins().map((p) => p.slots?.instructions)]
    .map((p) => p?.trim())
    .filter((p): p is string => p !== undefined && p.length > 0);
  if (paragraphs.length === 0) return undefined;
  const text = paragraphs.join("\n\n");
  return aliasSets.length > 0 ? serveAliases(catalog, aliasSets).text(text) : text;
};
