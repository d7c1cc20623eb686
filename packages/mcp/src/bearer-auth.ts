import { createHash } from "node:crypto";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The verdict on a request's `Authorization` header. */
export type BearerVerdict =
  | { readonly ok: true; readonly principal: string | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * A token → principal lookup over a static map. Tokens are looked up by their SHA-256, so the
 * comparison reveals nothing about a token through timing.
 *
 * @example
 * const principalOf = tokenPrincipals({ "tok-abc": "alice" })
 * principalOf("tok-abc") // "alice"
 */
export const tokenPrincipals = (
  tokens: Readonly<Record<string, string>>,
): ((token: string) => string | undefined) => {
  const byHash = new Map(Object.entries(tokens).map(([token, principal]) => [sha256(token), principal]));
  return (token) => byHash.get(sha256(token));
};

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Bearer-token authentication over a token → principal map, for any HTTP server: give it the
 * request's `Authorization` header; a missing, malformed or unknown token is refused (with an empty
 * map, every one). A server without tokens has no one to authenticate: it need not call this.
 * The MCP endpoint of `createMcpHttpHandler` checks tokens with the same lookup.
 *
 * @example
 * const auth = bearerAuth({ "tok-abc": "alice" })
 * auth(req.headers.authorization) // { ok: true, principal: "alice" } for "Bearer tok-abc"
 */
export const bearerAuth = (
  tokens: Readonly<Record<string, string>>,
): ((authorization: string | undefined) => BearerVerdict) => {
  const principalOf = tokenPrincipals(tokens);
  return (authorization) => {
    const match = authorization ? BEARER.exec(authorization) : null;
    if (!match) return { ok: false, message: "Missing bearer token: send Authorization: Bearer <token>." };
    const principal = principalOf(match[1]!);
    if (principal === undefined) return { ok: false, message: "Unknown bearer token." };
    return { ok: true, principal };
  };
};
