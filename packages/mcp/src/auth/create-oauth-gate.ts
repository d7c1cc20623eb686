import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import { tokenPrincipals } from "../bearer-auth.js";
import {
  type AuthorizationServerInfo,
  discoverAuthorizationServer,
} from "./discover-authorization-server.js";
import type { OidcOptions, TokenIdentity } from "./oauth-options.js";
import {
  protectedResourceMetadata,
  RESOURCE_METADATA_PATH,
  resourceMetadataUrl,
} from "./protected-resource-metadata.js";

/** Options of {@link createOAuthGate}. */
export interface OAuthGateOptions {
  /** The authorization server whose access tokens are accepted. */
  readonly oidc: OidcOptions;
  /** Static bearer tokens → principals accepted beside the provider's tokens. */
  readonly tokens?: Readonly<Record<string, string>>;
  /**
   * This server's public base URL (`https://quiver.example.org`, or `https://example.org/quiver`
   * behind a proxy's path prefix), or a function for one known after listening. Each resource's
   * metadata is served where RFC 9728 puts it: the well-known prefix before the resource's path
   * (`/.well-known/oauth-protected-resource/quiver/mcp`).
   */
  readonly baseUrl: string | (() => string);
  /** Paths of the resources served under the base besides the base itself (default `["/mcp"]`). */
  readonly resourcePaths?: ReadonlyArray<string>;
  /** Scopes published as `scopes_supported` (the scopes tools require). */
  readonly scopesSupported?: ReadonlyArray<string>;
  /** `resource_name` in the metadata (default "Quiver"). */
  readonly resourceName?: string;
  /** The clock `exp` and `nbf` are checked on (default the system clock); tests move it. */
  readonly now?: () => Date;
  /** The fetch used for discovery and introspection (default the global one). */
  readonly fetch?: typeof fetch;
}

/** An OAuth 2.1 resource server's gate, shared by the HTTP API and the MCP endpoint. */
export interface OAuthGate {
  /**
   * Checks a request's `Authorization` header: the caller's auth info (`extra` holds the
   * {@link TokenIdentity}), or the refusal to answer: 401 with `WWW-Authenticate: Bearer
   * resource_metadata="…"` (plus `error="invalid_token"` when a token was sent).
   */
  readonly authenticate: (
    authorization: string | null | undefined,
    resourcePath?: string,
  ) => Promise<AuthInfo | Response>;
  /** The 403 `insufficient_scope` refusal naming the scopes to ask for. */
  readonly insufficientScope: (missing: ReadonlyArray<string>, resourcePath?: string) => Response;
  /**
   * Serves `/.well-known/oauth-protected-resource[<base path>][/<resource path>]`; undefined for
   * any other path.
   */
  readonly metadataResponse: (method: string, pathname: string) => Response | undefined;
}

/** Static tokens never expire on their own: they live as long as the configuration. */
const NEVER = Math.floor(Date.UTC(9999, 0, 1) / 1000);
const JWT_SHAPE = /^[\w-]+\.[\w-]*\.[\w-]*$/;

/**
 * The resource server's gate over one authorization server (and any static tokens): JWT access
 * tokens verified against the issuer's JWKS, opaque ones by introspection when configured, each
 * only when issued for this server (audience). The issuer's metadata is discovered on the first
 * token, so the server starts while the provider is still coming up.
 *
 * @example
 * const gate = createOAuthGate({ oidc: { issuer: "https://login.example.org" }, baseUrl: "https://quiver.example.org" })
 * const verdict = await gate.authenticate(request.headers.get("authorization"), "/mcp")
 * if (verdict instanceof Response) console.log(verdict.status) // 401 with WWW-Authenticate; send it back
 */
export const createOAuthGate = (options: OAuthGateOptions): OAuthGate => {
  const { oidc } = options;
  const base = () =>
    (typeof options.baseUrl === "string" ? options.baseUrl : options.baseUrl()).replace(/\/$/, "");
  const paths = ["", ...(options.resourcePaths ?? ["/mcp"])];
  const audiences = () =>
    oidc.audience === undefined
      ? paths.map((p) => `${base()}${p}`)
      : typeof oidc.audience === "string"
        ? [oidc.audience]
        : oidc.audience;
  const now = options.now ?? (() => new Date());
  const fetchImpl = options.fetch ?? fetch;
  const staticPrincipal = options.tokens ? tokenPrincipals(options.tokens) : () => undefined;

  let verifiers:
    | Promise<{ jwt?: (t: string) => Promise<AuthInfo>; opaque?: (t: string) => Promise<AuthInfo> }>
    | undefined;
  const load = () => {
    verifiers ??= discoverAuthorizationServer(oidc.issuer, fetchImpl).then(
      async (meta: AuthorizationServerInfo) => {
        // Loaded with the first token: a host without OAuth never loads jose.
        const [{ jwtVerifier }, { introspectionVerifier }] = await Promise.all([
          import("./jwt-verifier.js"),
          import("./introspection-verifier.js"),
        ]);
        const endpoint = oidc.introspection?.endpoint ?? meta.introspection_endpoint;
        return {
          ...(meta.jwks_uri ? { jwt: jwtVerifier(oidc, { jwksUri: meta.jwks_uri, audiences, now }) } : {}),
          ...(oidc.introspection && endpoint
            ? {
                opaque: introspectionVerifier(oidc, oidc.introspection, {
                  endpoint,
                  audiences,
                  now,
                  fetch: fetchImpl,
                }),
              }
            : {}),
        };
      },
    );
    // A provider that was down is asked again on the next token.
    verifiers.catch(() => {
      verifiers = undefined;
    });
    return verifiers;
  };

  const verifyAccessToken = async (token: string): Promise<AuthInfo> => {
    const principal = staticPrincipal(token);
    if (principal !== undefined) {
      const identity: TokenIdentity = { principal, groups: [], clientId: undefined, staticToken: true };
      return { token, clientId: "", scopes: [], expiresAt: NEVER, extra: { ...identity } };
    }
    const { jwt, opaque } = await load();
    const verify = JWT_SHAPE.test(token) ? jwt : opaque;
    if (!verify) throw new OAuthError(OAuthErrorCode.InvalidToken, "Unknown bearer token.");
    return verify(token);
  };

  const metadataUrl = (resourcePath = "") => resourceMetadataUrl(`${base()}${resourcePath}`);
  /** The resource path (one of `paths`) whose metadata document is at `pathname`, if any. */
  const resourceAt = (pathname: string): string | undefined => {
    const asked = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
    return paths.find((p) => new URL(metadataUrl(p)).pathname === asked);
  };

  return {
    authenticate: async (authorization, resourcePath = "") => {
      if (!authorization) {
        return Response.json(
          {
            error: "unauthorized",
            error_description: `Send Authorization: Bearer <access token> from ${oidc.issuer} (see resource_metadata).`,
          },
          {
            status: 401,
            headers: { "www-authenticate": `Bearer resource_metadata="${metadataUrl(resourcePath)}"` },
          },
        );
      }
      try {
        return await verifyBearerToken(authorization, {
          verifier: { verifyAccessToken },
          resourceMetadataUrl: metadataUrl(resourcePath),
        });
      } catch (error) {
        return bearerAuthChallengeResponse(error, { resourceMetadataUrl: metadataUrl(resourcePath) });
      }
    },
    insufficientScope: (missing, resourcePath = "") =>
      bearerAuthChallengeResponse(
        new OAuthError(OAuthErrorCode.InsufficientScope, `This needs the scope ${missing.join(" ")}.`),
        { requiredScopes: [...missing], resourceMetadataUrl: metadataUrl(resourcePath) },
      ),
    metadataResponse: (method, pathname) => {
      if (!pathname.startsWith(RESOURCE_METADATA_PATH)) return undefined;
      const path = resourceAt(pathname);
      if (path === undefined) return undefined;
      if (method !== "GET" && method !== "HEAD")
        return Response.json({ error: "method_not_allowed" }, { status: 405, headers: { allow: "GET" } });
      return Response.json(
        protectedResourceMetadata({
          resource: `${base()}${path}`,
          issuer: oidc.issuer,
          scopesSupported: options.scopesSupported ?? [],
          resourceName: options.resourceName ?? "Quiver",
        }),
        { headers: { "access-control-allow-origin": "*", "cache-control": "max-age=300" } },
      );
    },
  };
};
