import type { Server, Transport } from "@modelcontextprotocol/server";
import type { TaskServing } from "./tasks-call.js";

/**
 * Serves MCP tasks beside the SDK's server. The SDK 2.4 has no task API and its `tools/call` result
 * validator refuses a `CreateTaskResult`, so a thin JSON-RPC layer on each connection's transport
 * (`tasks-dispatch.ts`) answers task-augmented `tools/call` and `tasks/*` itself, with the extension
 * package's wire schemas, in both eras (2025-11-25, and the 2026-07-28 `io.modelcontextprotocol/tasks`
 * extension), and hands every other message to the SDK. That layer and the schemas load only for a
 * server that serves tasks (they cost tens of milliseconds at import), before its first connection.
 */
export const serveTasks = (server: Server, serving: TaskServing): void => {
  const layer = import("./tasks-dispatch.js");
  // Loaded before any connection asks for it; a failure surfaces on connect.
  layer.catch(() => {});
  const closing = new AbortController();
  const previousClose = server.onclose;
  server.onclose = () => {
    closing.abort();
    previousClose?.();
  };
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    const { installTaskLayer } = await layer;
    await connect(transport);
    installTaskLayer(server, serving, transport, closing.signal);
  };
};
