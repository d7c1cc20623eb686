import { type AuthInfo, OAuthError, OAuthErrorCode, requireBearerAuth } from "@modelcontextprotocol/server";
import { tokenPrincipals } from "../bearer-auth.js";

/** Tokens never expire on their own: they live as long as the host's configuration. */
const NEVER = Math.floor(Date.UTC(9999, 0, 1) / 1000);

/**
 * A bearer-token gate over a static token → principal map (the lookup `bearerAuth` uses). An unknown or missing token
 * answers 401 with a `WWW-Authenticate: Bearer` challenge.
 */
export const tokenGate = (
  tokens: Readonly<Record<string, string>>,
): ((request: Request) => Promise<AuthInfo | Response>) => {
  const principalOf = tokenPrincipals(tokens);
  return requireBearerAuth({
    verifier: {
      verifyAccessToken: async (token) => {
        const principal = principalOf(token);
        if (principal === undefined)
          throw new OAuthError(OAuthErrorCode.InvalidToken, "Unknown bearer token");
        return { token, clientId: principal, scopes: [], expiresAt: NEVER, extra: { principal } };
      },
    },
  });
};
