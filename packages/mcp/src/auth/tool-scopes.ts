import type { AuthInfo } from "@modelcontextprotocol/server";
import type { ToolInfo } from "@quiver/core";

/**
 * The OAuth scopes tools require, keyed by tool name, plugin id, or `"*"` for every tool; a tool
 * needs the union of its entries.
 *
 * @example
 * const scopes: ToolScopes = { "*": ["tools"], fda: ["fda:read"], private_repo_search: ["repo"] }
 */
export type ToolScopes = Readonly<Record<string, ReadonlyArray<string>>>;

/** The scopes a tool requires under `scopes`, in a stable order without repeats. */
export const requiredScopes = (scopes: ToolScopes, tool: Pick<ToolInfo, "name" | "plugin">): string[] => [
  ...new Set([...(scopes["*"] ?? []), ...(scopes[tool.plugin] ?? []), ...(scopes[tool.name] ?? [])]),
];

/**
 * Which required scopes a caller's token lacks for a tool (empty: it may call it). Scopes bind
 * OAuth access tokens only: a call without auth info (stdio, the CLI) or with a static token from
 * the configuration (an operator's own grant) is not limited by them.
 *
 * @example
 * const missing = missingScopes({ fda: ["fda:read"] })
 * missing(tool, authInfo) // ["fda:read"] when the token's scopes lack it
 */
export const missingScopes =
  (scopes: ToolScopes) =>
  (tool: Pick<ToolInfo, "name" | "plugin">, authInfo: AuthInfo | undefined): string[] => {
    if (!authInfo || authInfo.extra?.staticToken !== false) return [];
    const granted = new Set(authInfo.scopes);
    return requiredScopes(scopes, tool).filter((s) => !granted.has(s));
  };
