/**
 * What a tool outside the catalog receives when an MCP client calls it: the conversation, the caller,
 * the request's `_meta`, and the HTTP request's headers (Streamable HTTP only).
 */
export interface ExtraToolCallContext {
  readonly sessionId: string;
  readonly principal?: string | undefined;
  readonly signal: AbortSignal;
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
  readonly headers?: Headers | undefined;
}

/** The tools/call result an extra tool answers (the SDK's CallToolResult shape). */
export interface ExtraToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A tool a host serves beside the catalog's, with its own result shape (no envelope): a seed
 * system's tool under its own name, for instance. An extra tool hides a catalog tool of the same name.
 */
export interface ExtraMcpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { readonly type: "object"; readonly [k: string]: unknown };
  /**
   * The catalog tools its calls go through. tools/list then shows it only to a caller who may call
   * at least one of those the catalog holds (by the catalog tools' own filter and scopes); without
   * it, to everyone. See {@link usesAllowed}.
   */
  readonly uses?: ReadonlyArray<string>;
  readonly call: (args: Record<string, unknown>, ctx: ExtraToolCallContext) => Promise<ExtraToolResult>;
}

/**
 * Whether a caller is shown a tool that calls catalog tools (a seed profile's tool): the caller may
 * call at least one of those the catalog holds, or the catalog holds none of them (its calls then
 * answer `unavailable`, saying what to install). `allowed` answers for one tool: true or false, or
 * undefined when the catalog does not hold it.
 *
 * @example
 * usesAllowed(["rag_search"], (name) => (tools.has(name) ? missingScopes(name).length === 0 : undefined))
 */
export const usesAllowed = (
  uses: ReadonlyArray<string> | undefined,
  allowed: (name: string) => boolean | undefined,
): boolean => {
  const held = (uses ?? []).map(allowed).filter((a) => a !== undefined);
  return held.length === 0 || held.includes(true);
};
