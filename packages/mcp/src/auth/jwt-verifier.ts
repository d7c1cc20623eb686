import { type AuthInfo, OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import { toMillis } from "@quiver/core";
import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import type { OidcOptions } from "./oauth-options.js";
import { acceptedAudience, authInfoFromClaims } from "./token-claims.js";

/** Asymmetric algorithms only: a shared-secret (HS*) or unsecured (`none`) token is never accepted. */
export const DEFAULT_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"] as const;

/** What a JWT verifier needs besides the settings: the JWKS address, the audiences and the clock. */
export interface JwtVerifierContext {
  readonly jwksUri: string;
  readonly audiences: () => ReadonlyArray<string>;
  readonly now: () => Date;
}

/**
 * Verifies JWT access tokens with `jose`: the signature against the issuer's JWKS (cached; an
 * unknown key id fetches it again, so a rotated key is picked up and a removed one refused), the
 * pinned algorithms, `iss`, `aud`, `exp` and `nbf` (with a small tolerance, on the injected clock).
 */
export const jwtVerifier = (oidc: OidcOptions, context: JwtVerifierContext) => {
  const jwks = createRemoteJWKSet(new URL(context.jwksUri), {
    cooldownDuration: toMillis(oidc.jwksCooldown ?? "30s"),
  });
  const algorithms = [...(oidc.algorithms ?? DEFAULT_ALGORITHMS)].filter((a) => a.toLowerCase() !== "none");
  const clockTolerance = Math.round(toMillis(oidc.clockTolerance ?? "30s") / 1000);
  return async (token: string): Promise<AuthInfo> => {
    const audiences = context.audiences();
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: oidc.issuer,
        audience: [...audiences],
        algorithms,
        clockTolerance,
        currentDate: context.now(),
        requiredClaims: ["exp"],
      });
      return authInfoFromClaims(token, payload, oidc, acceptedAudience(payload.aud, audiences)!);
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      // The keys could not be read (the provider is down): not the token's fault, so no invalid_token.
      if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError))
        throw new OAuthError(OAuthErrorCode.ServerError, "The identity provider's keys could not be read.");
      throw new OAuthError(OAuthErrorCode.InvalidToken, refusal(error));
    }
  };
};

/** Why a token was refused, in words a client's developer can act on (never the token itself). */
const refusal = (error: unknown): string => {
  if (error instanceof errors.JWTExpired) return "The access token has expired: get a new one.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The access token was not issued for this server (audience).";
    if (error.claim === "iss") return "The access token comes from another issuer.";
    if (error.claim === "nbf") return "The access token is not valid yet.";
    return `The access token's "${error.claim}" claim is not valid.`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return "The access token's signing algorithm is not accepted.";
  if (error instanceof errors.JWKSNoMatchingKey)
    return "The access token is signed with a key the issuer does not publish.";
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "The access token's signature is not valid.";
  return "The access token is not a valid JWT.";
};
