import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";

/** The parts of an authorization server's metadata a resource server uses. */
export interface AuthorizationServerInfo {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

/**
 * The metadata documents to try for an issuer, in order: OpenID Connect discovery, then RFC 8414
 * (which inserts the well-known segment before the issuer's path).
 */
const candidates = (issuer: string): string[] => {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
  ];
};

/**
 * Reads an issuer's metadata. The document must name the same issuer (RFC 8414 §3.3), so a
 * misconfigured or spoofed document is refused rather than trusted.
 */
export const discoverAuthorizationServer = async (
  issuer: string,
  fetchImpl: typeof fetch = fetch,
): Promise<AuthorizationServerInfo> => {
  const problems: string[] = [];
  for (const url of candidates(issuer)) {
    try {
      const response = await fetchImpl(url, { headers: { accept: "application/json" } });
      if (!response.ok) {
        problems.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const doc = (await response.json()) as AuthorizationServerInfo;
      if (doc.issuer !== issuer) {
        problems.push(`${url}: names issuer ${JSON.stringify(doc.issuer)}, not ${issuer}`);
        continue;
      }
      return doc;
    } catch (error) {
      problems.push(`${url}: ${(error as Error).message}`);
    }
  }
  throw new OAuthError(
    OAuthErrorCode.ServerError,
    `The identity provider's metadata could not be read (${problems.join("; ")}).`,
  );
};
