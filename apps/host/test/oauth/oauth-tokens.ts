import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";

/** Claims a test token carries, as an issuer would put them. */
export interface TokenClaims {
  readonly iss: string;
  readonly aud: string;
  readonly sub: string;
  readonly client_id?: string;
  readonly scope?: string;
  /** Seconds since the epoch. */
  readonly exp: number;
}

/** A JWT access token signed with `key` (a test's own key, or the issuer's to vary one claim only). */
export const signToken = async (claims: TokenClaims, key: JWK): Promise<string> =>
  new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "RS256", typ: "at+jwt", ...(key.kid ? { kid: key.kid } : {}) })
    .setIssuedAt()
    .sign(await importJWK(key, "RS256"));

/** A key of the attacker's own, under the issuer's key id (so only the signature gives it away). */
export const foreignKey = async (kid: string): Promise<JWK> => {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid };
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An unsecured JWT (`alg: none`, RFC 7519 §6): header, claims and an empty signature. */
export const unsecuredToken = (claims: TokenClaims): string =>
  `${b64({ alg: "none", typ: "at+jwt" })}.${b64(claims)}.`;
