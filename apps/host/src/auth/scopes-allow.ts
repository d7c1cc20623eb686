import { type Catalog, closestMatches } from "@quiver/core";
import { requiredScopes, type ToolScopes } from "@quiver/mcp/server";
import type { HostSettings } from "../config/host-settings.js";

/** The scopes a tool requires under `auth.scopes`: an alias needs what the tool it stands for needs. */
export const hostRequiredScopes =
  (settings: Pick<HostSettings, "auth" | "aliases">) =>
  (tool: { readonly name: string; readonly plugin: string }): string[] =>
    requiredScopes(settings.auth.scopes, {
      name: settings.aliases[tool.name] ?? tool.name,
      plugin: tool.plugin,
    });

/**
 * Whether a caller whose token carries `scopes` may call a tool (a caller that is not
 * scope-limited, `scopes` undefined, may call every tool).
 */
export const scopesAllow = (settings: Pick<HostSettings, "auth" | "aliases">) => {
  const required = hostRequiredScopes(settings);
  return (
    tool: { readonly name: string; readonly plugin: string },
    scopes: ReadonlyArray<string> | undefined,
  ) => scopes === undefined || required(tool).every((s) => scopes.includes(s));
};

/**
 * A line for each `auth.scopes` key that names no tool, alias or plugin of the catalog (a typo would
 * otherwise leave a tool open), with the closest name.
 */
export const unknownScopeKeys = (scopes: ToolScopes, catalog: Pick<Catalog, "list">): string[] => {
  const names = new Set<string>(["*"]);
  for (const t of catalog.list()) names.add(t.name).add(t.plugin);
  return Object.keys(scopes)
    .filter((key) => !names.has(key))
    .map((key) => {
      const near = closestMatches([...names], key, { limit: 1 })[0];
      return `auth.scopes: "${key}" names no tool or plugin, so it requires nothing${near ? ` (did you mean "${near}"?)` : ""}.`;
    });
};
