/**
 * Where an MCP server is: a command to spawn, speaking MCP on its stdin/stdout, or a Streamable HTTP
 * URL (give `command` or `url`). The bridge plugin and `connectMcpToolCaller` take it.
 *
 * @example
 * const stdio: McpTarget = { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] };
 * const http: McpTarget = { url: "https://mcp.example.org/mcp", headers: { authorization: "Bearer …" } };
 */
export interface McpTarget {
  /** A command to spawn, speaking MCP on its stdin/stdout (give `command` or `url`). */
  readonly command?: string;
  readonly args?: ReadonlyArray<string>;
  /** Extra environment for the command (added to PATH, HOME and the other safe defaults). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory of the command (default: this process's). */
  readonly cwd?: string;
  /** A Streamable HTTP MCP endpoint (give `command` or `url`). */
  readonly url?: string;
  /** Headers for every HTTP request (e.g. `authorization`); their values never appear in messages. */
  readonly headers?: Readonly<Record<string, string>>;
}
