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
