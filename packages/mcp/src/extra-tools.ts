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
  readonly call: (args: Record<string, unknown>, ctx: ExtraToolCallContext) => Promise<ExtraToolResult>;
}
