import type { ToolInfo } from "@quiver/core";

/** Who is calling the HTTP API, as its routes read it. */
export interface ApiCaller {
  /** From the token (or the host's `principal` without tokens). */
  readonly principal: string | undefined;
  /** From the identity provider's groups claim; empty otherwise. */
  readonly groups: ReadonlyArray<string>;
  /** The OAuth client the token was issued to; undefined for static tokens. */
  readonly clientId: string | undefined;
  /** The access token's scopes; undefined when the caller is not scope-limited (static tokens). */
  readonly scopes: ReadonlyArray<string> | undefined;
  /** The scopes of a tool the caller's token lacks (empty: it may call it). */
  readonly missingScopes: (tool: Pick<ToolInfo, "name" | "plugin">) => ReadonlyArray<string>;
}

/** A refused request: the status, the `WWW-Authenticate` challenge and the API's error body. */
export interface ApiRefusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly code: string;
  readonly message: string;
  readonly fix: string;
}

/** The HTTP API's authentication when the host accepts OAuth access tokens. */
export interface ApiAuth {
  /** The caller behind an `Authorization` header, or the refusal to answer. */
  readonly authenticate: (authorization: string | undefined) => Promise<ApiCaller | ApiRefusal>;
  /** The 403 `insufficient_scope` refusal for a tool call missing scopes. */
  readonly insufficientScope: (missing: ReadonlyArray<string>) => ApiRefusal;
  /** Serves the Protected Resource Metadata documents; undefined for any other path. */
  readonly metadata: (method: string, path: string) => Response | undefined;
}
