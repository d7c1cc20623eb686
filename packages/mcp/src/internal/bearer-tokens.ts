import { createHash } from "node:crypto";
import { type AuthInfo, OAuthError, OAuthErrorCode, requireBearerAuth } from "@modelcontextprotocol/server";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Tokens never expire on their own: they live as long as the host's configuration. */
const NEVER = Math.floor(Date.UTC(9999, 0, 1) / 1000);

/**
 * A bearer-token gate over a static token → principal map. Tokens are looked up by their SHA-256,
 * so the comparison reveals nothing about a token through timing. An unknown or missing token
 * answers 401 with a `WWW-Authenticate: Bearer` challenge.
 */
export const tokenGate = (
  tokens: Readonly<Record<string, string>>,
): ((request: Request) => Promise<AuthInfo | Response>) => {
  const principals = new Map(Object.entries(tokens).map(([token, principal]) => [sha256(token), principal]));
  return requireBearerAuth({
    verifier: {
      verifyAccessToken: async (token) => {
        const principal = principals.get(sha256(token));
        if (principal === undefined)
          throw new OAuthError(OAuthErrorCode.InvalidToken, "Unknown bearer token");
        return { token, clientId: principal, scopes: [], expiresAt: NEVER, extra: { principal } };
      },
    },
  });
};
