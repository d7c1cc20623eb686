import type { Catalog } from "@quiver/core";
import { availableAliasSets, unknownAliasSets } from "@quiver/mcp/server";
import type { HostSettings } from "../config/host-settings.js";

/**
 * What is wrong with the alias sets asked for (`--alias-set`, the file's `aliasSets`): one line per
 * name no loaded plugin declares, listing the sets there are. Empty when every name is known.
 *
 * @example
 * aliasSetProblems(settings, catalog) // ["--alias-set / aliasSets: unknown alias set \"ctx7\"; the plugins declare: context7-mcp (context7)."]
 */
export const aliasSetProblems = (settings: HostSettings, catalog: Catalog): string[] => {
  const unknown = unknownAliasSets(catalog, settings.aliasSets);
  if (unknown.length === 0) return [];
  const offered = availableAliasSets(catalog);
  const known =
    offered.length > 0
      ? `the plugins declare: ${offered.map((s) => `${s.name} (${s.plugin})`).join(", ")}`
      : "no loaded plugin declares any";
  return unknown.map((n) => `--alias-set / aliasSets: unknown alias set "${n}"; ${known}.`);
};
