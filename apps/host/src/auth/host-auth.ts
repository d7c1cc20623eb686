import { createOAuthGate, type McpHttpHandlerOptions } from "@quiver/mcp/server";
import type { HostSettings } from "../config/host-settings.js";
import type { ApiAuth, ApiRefusal } from "./api-caller.js";
import { hostRequiredScopes } from "./scopes-allow.js";

/** The verified auth info the MCP handler passes on (the SDK's `AuthInfo`, as the handler's option types it). */
type AuthInfo = Parameters<NonNullable<McpHttpHandlerOptions["missingScopes"]>>[1];

/** How `quiver serve` authenticates with `auth.oidc`: the MCP handler's options and the HTTP API's. */
export interface HostAuth {
  readonly mcp: Pick<McpHttpHandlerOptions, "authenticate" | "missingScopes">;
  readonly api: ApiAuth;
}

/** The MCP endpoint's path: its resource URL and metadata carry it (MCP authorization spec). */
const MCP_PATH = "/mcp";

/** An OAuth refusal (a web Response from the gate) in the HTTP API's error shape. */
const toRefusal = async (response: Response): Promise<ApiRefusal> => {
  const body = (await response.json().catch(() => ({}))) as { error?: string; error_description?: string };
  const challenge = response.headers.get("www-authenticate");
  return {
    status: response.status,
    headers: challenge ? { "www-authenticate": challenge } : {},
    code: response.status === 403 ? "insufficient_scope" : "unauthorized",
    message: body.error_description ?? "Authentication failed.",
    fix:
      response.status === 403
        ? "Ask the identity provider for a token with the scope named in WWW-Authenticate."
        : "Get an access token from the authorization server named in the resource metadata (WWW-Authenticate: resource_metadata) and send Authorization: Bearer <token>.",
  };
};

/**
 * The host's OAuth 2.1 resource server, when `auth.oidc` is configured: one gate (static tokens
 * and the provider's access tokens) behind the HTTP API, the console's API and MCP, publishing
 * `/.well-known/oauth-protected-resource` and `/.well-known/oauth-protected-resource/mcp` (with the
 * path of `auth.publicUrl`, if any, between the prefix and `/mcp`, as RFC 9728 places it).
 * `baseUrl` is read per request, since the bound port is known only after listening.
 */
export const createHostAuth = (settings: HostSettings, baseUrl: () => string): HostAuth | undefined => {
  const { oidc, scopes } = settings.auth;
  if (!oidc) return undefined;
  const gate = createOAuthGate({
    oidc,
    tokens: settings.tokens,
    baseUrl: () => settings.auth.publicUrl ?? baseUrl(),
    resourcePaths: [MCP_PATH],
    scopesSupported: [...new Set(Object.values(scopes).flat())],
  });
  const required = hostRequiredScopes(settings);
  // The token's scopes bind OAuth callers only: static tokens (staticToken true) are the operator's own.
  const missing = (tool: { name: string; plugin: string }, authInfo: AuthInfo | undefined): string[] => {
    if (authInfo?.extra?.staticToken !== false) return [];
    return required(tool).filter((s) => !authInfo.scopes.includes(s));
  };
  return {
    mcp: {
      authenticate: (request) => gate.authenticate(request.headers.get("authorization"), MCP_PATH),
      missingScopes: missing,
    },
    api: {
      authenticate: async (authorization) => {
        const verdict = await gate.authenticate(authorization);
        if (verdict instanceof Response) return toRefusal(verdict);
        const authInfo = verdict;
        const extra = authInfo.extra ?? {};
        return {
          principal: extra.principal as string,
          groups: (extra.groups as string[] | undefined) ?? [],
          clientId: extra.clientId as string | undefined,
          scopes: extra.staticToken === false ? authInfo.scopes : undefined,
          missingScopes: (tool) => missing(tool, authInfo),
        };
      },
      insufficientScope: (scopesMissing) => {
        const response = gate.insufficientScope(scopesMissing);
        return {
          status: 403,
          headers: { "www-authenticate": response.headers.get("www-authenticate") ?? "Bearer" },
          code: "insufficient_scope",
          message: `This tool needs the scope${scopesMissing.length === 1 ? "" : "s"} ${scopesMissing.join(" ")}, which your access token does not carry.`,
          fix: `Ask the identity provider for a token with scope "${scopesMissing.join(" ")}".`,
        };
      },
      metadata: gate.metadataResponse,
    },
  };
};
