import type { DurationInput } from "@quiver/core";
import type * as Redacted from "effect/Redacted";

/** RFC 7662 token introspection, for opaque (non-JWT) access tokens. */
export interface IntrospectionOptions {
  /** The introspection endpoint (default: the issuer's `introspection_endpoint` from discovery). */
  readonly endpoint?: string | undefined;
  /** This resource server's client id at the authorization server. */
  readonly clientId: string;
  /** Its client secret (sent as HTTP Basic authentication; never logged). */
  readonly clientSecret: Redacted.Redacted<string>;
}

/**
 * An OAuth 2.1 authorization server (an OpenID provider) whose access tokens this server accepts.
 *
 * @example
 * const oidc: OidcOptions = { issuer: "https://login.example.org/realms/lab", groupsClaim: "groups" }
 */
export interface OidcOptions {
  /** The issuer URL; its metadata is read from `/.well-known/openid-configuration` or RFC 8414's `/.well-known/oauth-authorization-server`. */
  readonly issuer: string;
  /** The `aud` values accepted (default: the server's resource URLs, its base URL and the MCP endpoint's). */
  readonly audience?: string | ReadonlyArray<string> | undefined;
  /** The claim naming the principal (default `sub`). */
  readonly principalClaim?: string | undefined;
  /** A claim holding the caller's groups (an array, or a space-separated string); none by default. */
  readonly groupsClaim?: string | undefined;
  /** The claim holding the token's scopes (default `scope`; a space-separated string or an array such as `scp`). */
  readonly scopeClaim?: string | undefined;
  /** The JWS algorithms accepted (default RS256, PS256, ES256, EdDSA); `none` never is. */
  readonly algorithms?: ReadonlyArray<string> | undefined;
  /** Leeway for `exp` and `nbf` (default "30s"). */
  readonly clockTolerance?: DurationInput | undefined;
  /** Opaque tokens are checked with RFC 7662 introspection when this is set. */
  readonly introspection?: IntrospectionOptions | undefined;
  /**
   * How soon an unknown key id may make the JWKS be fetched again (default "30s", as jose's
   * `cooldownDuration`): a rotated key is picked up on its first token after that.
   */
  readonly jwksCooldown?: DurationInput | undefined;
}

/** What the caller's token said, as a gate puts it in the auth info's `extra`. */
export interface TokenIdentity {
  readonly principal: string;
  /** From the groups claim; empty without one. */
  readonly groups: ReadonlyArray<string>;
  /** The client the token was issued to (`client_id`, else `azp`). */
  readonly clientId: string | undefined;
  /** True for a static token from the configuration (trusted with every tool). */
  readonly staticToken: boolean;
}
