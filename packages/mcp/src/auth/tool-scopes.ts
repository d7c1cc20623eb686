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
