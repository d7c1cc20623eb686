import { type AuthInfo, OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { OidcOptions, TokenIdentity } from "./oauth-options.js";

/** A claim that may be an array of strings or one space-separated string (`scope`, `groups`). */
const stringList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string" && v !== "")
    : typeof value === "string"
      ? value.split(/\s+/).filter(Boolean)
      : [];

/** The first `aud` value that this server accepts (RFC 8707: the token must be meant for it). */
export const acceptedAudience = (aud: unknown, accepted: ReadonlyArray<string>): string | undefined => {
  const trim = (s: string) => s.replace(/\/$/, "");
  const wanted = new Set(accepted.map(trim));
  return stringList(aud).find((a) => wanted.has(trim(a)));
};

/**
 * The auth info of a verified token's claims (a JWT's payload or an introspection answer): the
 * principal from the configured claim, the groups and scopes, the client id, the expiry and the
 * audience it was accepted for.
 */
export const authInfoFromClaims = (
  token: string,
  claims: Readonly<Record<string, unknown>>,
  oidc: OidcOptions,
  audience: string,
): AuthInfo => {
  const claim = oidc.principalClaim ?? "sub";
  const clientId =
    typeof claims.client_id === "string"
      ? claims.client_id
      : typeof claims.azp === "string"
        ? claims.azp
        : undefined;
  // A client-credentials token acts for its client: without a `sub` its client is the principal
  // (as RFC 9068 has JWT access tokens say in `sub`; an introspection answer may leave it out).
  const principal = claims[claim] ?? (claim === "sub" ? clientId : undefined);
  if (typeof principal !== "string" || principal === "")
    throw new OAuthError(
      OAuthErrorCode.InvalidToken,
      `The token has no "${claim}" claim to name its principal.`,
    );
  const identity: TokenIdentity = {
    principal,
    groups: oidc.groupsClaim ? stringList(claims[oidc.groupsClaim]) : [],
    clientId,
    staticToken: false,
  };
  return {
    token,
    clientId: clientId ?? "",
    scopes: stringList(claims[oidc.scopeClaim ?? "scope"]),
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
    resource: new URL(audience),
    extra: { ...identity },
  };
};
