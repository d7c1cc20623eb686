/** Who is calling a tool (from the host's token mapping and the transport's session). */
export interface Caller {
  /** The caller's id; undefined for anonymous calls. */
  readonly principal: string | undefined;
  /** The caller's groups from the identity provider (empty without a groups claim), e.g. to share with a group. */
  readonly groups: ReadonlyArray<string>;
  /** The OAuth client the caller's token was issued to (`client_id`/`azp`); undefined for static tokens. */
  readonly clientId: string | undefined;
  /** The OAuth scopes of the caller's access token; undefined when its credentials are not scope-limited. */
  readonly scopes: ReadonlyArray<string> | undefined;
  readonly sessionId: string | undefined;
  /** Values the host holds for this session (the current subject ...). */
  readonly session: Readonly<Record<string, unknown>>;
}

/** Which call an attempt belongs to. */
export interface CallInfo {
  readonly id: string;
  /** The tool's name as the catalog exposes it. */
  readonly tool: string;
  readonly plugin: string;
  /** 1 for the first attempt, 2 for the first retry ... */
  readonly attempt: number;
}
