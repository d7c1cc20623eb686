import { type AuthInfo, OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import * as Redacted from "effect/Redacted";
import type { IntrospectionOptions, OidcOptions } from "./oauth-options.js";
import { acceptedAudience, authInfoFromClaims } from "./token-claims.js";

/** What an introspection verifier needs besides the settings. */
export interface IntrospectionContext {
  readonly endpoint: string;
  readonly audiences: () => ReadonlyArray<string>;
  readonly now: () => Date;
  readonly fetch: typeof fetch;
}

/**
 * Verifies opaque access tokens with RFC 7662 introspection: the authorization server says whether
 * the token is active; this server still checks the issuer, the audience and the expiry itself,
 * so a token meant for another resource is refused here too.
 */
export const introspectionVerifier = (
  oidc: OidcOptions,
  introspection: IntrospectionOptions,
  context: IntrospectionContext,
) => {
  const basic = () =>
    `Basic ${Buffer.from(
      `${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(Redacted.value(introspection.clientSecret))}`,
    ).toString("base64")}`;
  return async (token: string): Promise<AuthInfo> => {
    let answer: Record<string, unknown>;
    try {
      const response = await context.fetch(context.endpoint, {
        method: "POST",
        headers: {
          authorization: basic(),
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      answer = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        `Token introspection failed (${(error as Error).message}).`,
      );
    }
    if (answer.active !== true)
      throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is not active.");
    if (answer.iss !== undefined && answer.iss !== oidc.issuer)
      throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token comes from another issuer.");
    const audience = acceptedAudience(answer.aud, context.audiences());
    if (!audience)
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        "The access token was not issued for this server (audience).",
      );
    if (typeof answer.exp !== "number" || answer.exp * 1000 <= context.now().getTime())
      throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token has expired: get a new one.");
    return authInfoFromClaims(token, answer, oidc, audience);
  };
};
