import { requiredScopes } from "@quiver/mcp/server";
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
