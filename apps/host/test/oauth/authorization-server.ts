import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/** A client of the test authorization server: its secret, the scopes it may get and its groups. */
export interface TestClient {
  readonly secret: string;
  readonly scope: string;
  readonly groups?: ReadonlyArray<string>;
  /** Its access tokens are opaque (checked by introspection) instead of JWTs. */
  readonly opaque?: boolean;
}

/** A running `oidc-provider` on 127.0.0.1 issuing JWT access tokens for resource indicators. */
export interface AuthorizationServer {
  readonly issuer: string;
  /** The private signing key now in use (for tokens a test signs itself with the issuer's key). */
  readonly signingKey: () => JWK;
  /** A client-credentials access token for `resource` (RFC 8707), as a client would get it. */
  readonly token: (clientId: string, resource: string, scope?: string) => Promise<string>;
  /** Replaces the signing key: the JWKS then publishes only the new one. */
  readonly rotate: () => Promise<void>;
  readonly close: () => Promise<void>;
}

const newKey = async (): Promise<JWK> => {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: `k-${Math.random().toString(36).slice(2, 10)}`, alg: "RS256", use: "sig" };
};

const providerFor = (issuer: string, clients: Readonly<Record<string, TestClient>>, key: JWK) =>
  new Provider(issuer, {
    clients: Object.entries(clients).map(([client_id, c]) => ({
      client_id,
      client_secret: c.secret,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      scope: c.scope,
    })),
    scopes: ["openid", ...new Set(Object.values(clients).flatMap((c) => c.scope.split(" ")))],
    jwks: { keys: [key as never] },
    ttl: { ClientCredentials: 3600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator, client) => ({
          scope: clients[client.clientId]?.scope ?? "",
          audience: resourceIndicator,
          accessTokenTTL: 3600,
          accessTokenFormat: clients[client.clientId]?.opaque ? "opaque" : "jwt",
          ...(clients[client.clientId]?.opaque ? {} : { jwt: { sign: { alg: "RS256" } } }),
        }),
      },
    },
    extraTokenClaims: (_ctx, token) => {
      const groups = clients[(token as { clientId?: string }).clientId ?? ""]?.groups;
      return groups ? { groups: [...groups] } : undefined;
    },
  });

/**
 * Starts a real OpenID provider (`oidc-provider`, certified) in this process on a free port. Its
 * clients use the client-credentials grant; each token is a signed JWT whose `aud` is the resource
 * asked for and whose `sub` is the client id.
 *
 * @example
 * const as = await startAuthorizationServer({ alice: { secret: "s", scope: "tools" } })
 */
export const startAuthorizationServer = async (
  clients: Readonly<Record<string, TestClient>>,
): Promise<AuthorizationServer> => {
  let key = await newKey();
  let callback: ReturnType<Provider["callback"]> | undefined;
  const http: Server = createServer((req, res) => callback!(req, res));
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const install = () => {
    const provider = providerFor(issuer, clients, key);
    callback = provider.callback();
  };
  install();
  return {
    issuer,
    signingKey: () => key,
    token: async (clientId, resource, scope) => {
      const client = clients[clientId]!;
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          resource,
          scope: scope ?? client.scope,
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error_description?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    rotate: async () => {
      key = await newKey();
      install();
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
};
