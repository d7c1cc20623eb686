import { createBridgeConnection } from "./internal/bridge-connection.js";
import { failureFromError } from "./internal/remote-result.js";
import type { McpTarget } from "./mcp-target.js";

/** Options of `connectMcpToolCaller`: the server ({@link McpTarget}), its name in messages and the time limits. */
export interface McpToolCallerOptions extends McpTarget {
  /** What failure messages call the server (default "mcp"), e.g. "context7". */
  readonly name?: string;
  /** Longest one call may take at the protocol level, in ms (default 10 minutes; pass a signal to end it sooner). */
  readonly requestTimeoutMs?: number;
  /** Longest the connection handshake may take, in ms (default 30 seconds). */
  readonly connectTimeoutMs?: number;
}

/** A content block of a tool result (text, image, resource ...), as the server sent it. */
export interface McpToolContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly [key: string]: unknown;
}

/** What a remote `tools/call` answered: its content, structured content if any, and `isError`. */
export interface McpToolCallResult {
  readonly content: ReadonlyArray<McpToolContentBlock>;
  readonly structuredContent?: unknown;
  /** True when the tool ran and reported a failure (an answer, not a transport error). */
  readonly isError?: boolean;
}

/** A connection to one MCP server reduced to calling its tools (the `McpToolCaller` plugins take). */
export interface McpToolCaller {
  /** What it points at, without secrets ("stdio: npx -y @upstash/context7-mcp" or the URL). */
  readonly label: string;
  /**
   * Calls one remote tool. Resolves with the result, also when the tool reports `isError`; rejects
   * with a `ToolFailure` when the server cannot answer (`unavailable` for a server that cannot be
   * started or reached or a connection lost mid-call, `timeout`, `access_denied` for HTTP 401/403,
   * `invalid_input` for rejected arguments), or with the SDK's abort error when `signal` aborts.
   */
  callTool(
    call: { readonly name: string; readonly arguments?: Readonly<Record<string, unknown>> },
    options?: { readonly signal?: AbortSignal },
  ): Promise<McpToolCallResult>;
  /** Closes the connection (ends a spawned server). A later call opens a new one. */
  close(): Promise<void>;
}

/**
 * A tool caller for one remote MCP server (a command over stdio, or a Streamable HTTP URL), with
 * the MCP bridge's connection handling: the connection opens on the first call (so creating one
 * costs nothing and a server that is down fails calls, not start-up), a lost connection or expired
 * session is dropped and the next call reconnects (respawning a command that exited), and failures
 * are `ToolFailure`s that name the command or URL and the last lines of the server's stderr.
 *
 * Use it when a plugin reaches its upstream through an MCP server's tools without bridging them
 * into the catalog; close it when the host shuts down.
 *
 * @example
 * const context7 = connectMcpToolCaller({ command: "npx", args: ["-y", "@upstash/context7-mcp"], name: "context7" });
 * const found = await context7.callTool({ name: "resolve-library-id", arguments: { libraryName: "react", query: "hooks" } });
 * // on shutdown: await context7.close();
 */
export const connectMcpToolCaller = (options: McpToolCallerOptions): McpToolCaller => {
  const name = options.name ?? "mcp";
  const conn = createBridgeConnection(name, options);
  const timeout = options.requestTimeoutMs ?? 600_000;
  return {
    label: conn.label,
    callTool: async (call, { signal } = {}) => {
      try {
        const result = await conn.callTool(
          call.name,
          { ...call.arguments },
          {
            timeout,
            ...(signal ? { signal } : {}),
          },
        );
        return {
          content: (result.content ?? []) as ReadonlyArray<McpToolContentBlock>,
          ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
          ...(result.isError ? { isError: true } : {}),
        };
      } catch (error) {
        if (signal?.aborted) throw error;
        const failure = failureFromError(error, call.name, name, conn);
        // A dead pipe or lost session does not come back: the next call reconnects.
        if (failure.kind === "unavailable") await conn.reset();
        throw failure;
      }
    },
    close: () => conn.close(),
  };
};
