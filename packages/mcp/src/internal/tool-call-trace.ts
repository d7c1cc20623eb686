import { type CallOptions, traceContextOf } from "@quiver/core";

/** What of an MCP request's context a `tools/call` span is described from. */
interface McpRequestContext {
  readonly sessionId?: string | undefined;
  readonly mcpReq: { readonly id: string | number; readonly _meta?: unknown };
  readonly http?: { readonly req?: { readonly headers: { get(name: string): string | null } } | undefined };
}

/**
 * The trace options of a `tools/call`: the caller's trace context, from `params._meta.traceparent`
 * (any transport) or else the HTTP request's `traceparent` header (Streamable HTTP), and the MCP
 * server span the catalog opens around the call when a tracer is installed, named and described per
 * the OpenTelemetry MCP conventions (`tools/call {tool}`, `mcp.method.name`, `mcp.session.id`,
 * `jsonrpc.request.id`, `gen_ai.tool.name`, `network.transport`).
 */
export const toolCallTrace = (
  tool: string,
  ctx: McpRequestContext,
): Pick<CallOptions, "trace" | "transportSpan"> => {
  const trace =
    traceContextOf(ctx.mcpReq._meta as Readonly<Record<string, unknown>> | undefined) ??
    traceContextOf(ctx.http?.req?.headers);
  return {
    ...(trace ? { trace } : {}),
    transportSpan: {
      name: `tools/call ${tool}`,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": tool,
        "gen_ai.operation.name": "execute_tool",
        "jsonrpc.request.id": String(ctx.mcpReq.id),
        "network.transport": ctx.http ? "tcp" : "pipe",
        ...(ctx.sessionId ? { "mcp.session.id": ctx.sessionId } : {}),
      },
    },
  };
};
