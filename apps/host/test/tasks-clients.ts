import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  type TaskEnabledSession,
} from "@modelcontextprotocol/ext-tasks/client";

/** The 2026-07-28 protocol version. */
export const MODERN = "2026-07-28";

/** A connected MCP client and the official ext-tasks requester session over it. */
export interface TaskClient {
  readonly client: Client;
  readonly session: TaskEnabledSession;
  readonly close: () => Promise<void>;
}

let ids = 0;

/**
 * The raw request path the extension's client needs against a 2026-07-28 server (its `rawDispatch`):
 * one POST per request with the era's standard headers, answered as JSON or SSE.
 */
const rawDispatch =
  (mcpUrl: string, token: string): RawClientDispatch =>
  async (request) => {
    const body = request as { method: string; params?: Record<string, unknown> };
    const name = body.method === "tools/call" ? body.params?.name : body.params?.taskId;
    const id = ++ids;
    const response = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": body.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, ...body }),
    });
    const text = await response.text();
    const messages = (response.headers.get("content-type") ?? "").includes("text/event-stream")
      ? text
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => JSON.parse(l.slice(5)))
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === id);
    return answer.error ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
  };

/**
 * Connects to `quiver serve`'s Streamable HTTP endpoint as `token`'s principal, in the 2025-11-25
 * era (`legacy`) or the 2026-07-28 one (`modern`, with `rawDispatch` and `v2RequestFraming`).
 */
export const connectTasks = async (
  baseUrl: string,
  token: string,
  era: "legacy" | "modern",
): Promise<TaskClient> => {
  const mcpUrl = `${baseUrl}/mcp`;
  const info = { name: `tasks-${era}`, version: "1.0.0" };
  const client = new Client(info, era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const session = createTaskSessionFromClient(client, {
    endpointId: `quiver-${era}`,
    ...(era === "modern"
      ? {
          rawDispatch: rawDispatch(mcpUrl, token),
          v2RequestFraming: { protocolVersion: MODERN, clientInfo: info, clientCapabilities: {} },
        }
      : {}),
  });
  return {
    client,
    session,
    close: async () => {
      await session.close().catch(() => {});
      await client.close().catch(() => {});
    },
  };
};
