import type { AuthInfo } from "@modelcontextprotocol/server";

/** What decides who a caller is. */
export interface PrincipalOptions {
  readonly principal?: string;
  readonly principalFrom?: (authInfo: AuthInfo) => string | undefined;
}

/** The principal behind a request: the auth info's mapping, else the server's fixed principal. */
export const principalOf = (
  options: PrincipalOptions,
  authInfo: AuthInfo | undefined,
): string | undefined => {
  if (!authInfo) return options.principal;
  if (options.principalFrom) return options.principalFrom(authInfo) ?? options.principal;
  const p = authInfo.extra?.principal;
  return typeof p === "string" ? p : authInfo.clientId || options.principal;
};

/**
 * The caller's groups and OAuth client, as a verifier put them in the auth info's `extra`
 * (`groups`: string[], `clientId`: string), and the token's scopes when it is an OAuth access
 * token (`extra.staticToken === false`); nothing for a static token.
 */
export const identityExtras = (
  authInfo: AuthInfo | undefined,
): { groups?: ReadonlyArray<string>; clientId?: string; scopes?: ReadonlyArray<string> } => {
  const extra = authInfo?.extra;
  if (!extra) return {};
  const groups = Array.isArray(extra.groups)
    ? extra.groups.filter((g): g is string => typeof g === "string")
    : [];
  return {
    ...(groups.length > 0 ? { groups } : {}),
    ...(typeof extra.clientId === "string" ? { clientId: extra.clientId } : {}),
    ...(extra.staticToken === false ? { scopes: authInfo.scopes } : {}),
  };
};
