import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { type Catalog, createCatalog } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { testPlugin } from "./fixtures/test-plugin.js";
import { listen } from "./helpers.js";

let catalog: Catalog;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
const clients: MCPClient[] = [];

beforeAll(async () => {
  catalog = createCatalog({ env: {} });
  catalog.register(testPlugin);
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-ai": "ai-user" } });
  http = await listen((req, res) => void handler(req, res));
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
});
afterAll(async () => {
  await handler.close();
  await http.close();
  await catalog.close();
});

const options = { toolCallId: "call-1", messages: [], context: {} };

describe.each([
  {
    era: "probing with server/discover (its default: served per request)",
    protocolVersionDiscovery: true,
    protocol: "2026-07-28",
  },
  {
    era: "with the initialize handshake (a stateful session)",
    protocolVersionDiscovery: false,
    protocol: "2025-11-25",
  },
])(
  "Vercel AI SDK MCP client (@ai-sdk/mcp) against the Streamable HTTP server, $era",
  ({ protocolVersionDiscovery, protocol }) => {
    const connect = async () => {
      const client = await createMCPClient({
        transport: { type: "http", url: `${http.url}/mcp`, headers: { authorization: "Bearer tok-ai" } },
        protocolVersionDiscovery,
      });
      clients.push(client);
      return client;
    };

    it("lists the tools as AI SDK tools with their JSON Schemas", async () => {
      const client = await connect();
      expect(client.initializeResult.protocolVersion).toBe(protocol);
      const tools = await client.tools();
      expect(Object.keys(tools)).toEqual([
        "test_echo",
        "test_fail",
        "test_progress",
        "test_wait_upstream",
        "test_whoami",
      ]);
      expect(tools.test_echo?.description).toBe("Echoes the text back. Use this to check the connection.");
    });

    it("executes a tool and gets the envelope as structured content", async () => {
      const client = await connect();
      const tools = await client.tools();
      const result = (await tools.test_echo!.execute!({ text: "from ai sdk" }, options)) as {
        isError?: boolean;
        structuredContent?: unknown;
        content: Array<{ type: string; text?: string }>;
      };
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ status: "success", data: { text: "from ai sdk" } });
      expect(result.content[0]?.text).toBe("test_echo succeeded.");
    });

    it("sees a failing tool as isError with the error envelope, and the token's principal", async () => {
      const client = await connect();
      const failed = await client.callTool({ name: "test_fail", arguments: { reason: "ai" } });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toMatchObject({ status: "error", error: { kind: "out_of_domain" } });
      const who = await client.callTool({ name: "test_whoami", arguments: {} });
      expect(who.structuredContent).toMatchObject({ data: { principal: "ai-user" } });
    });
  },
);
