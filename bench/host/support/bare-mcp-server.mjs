// A bare MCP SDK server with the benchmark's trivial tool, served over Streamable HTTP the way the SDK
// documents it: McpServer + registerTool, one WebStandardStreamableHTTPServerTransport per session,
// on node:http. Prints "listening <url>" on stdout. Run: node bench/host/support/bare-mcp-server.mjs [port]
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveBareMcp } from "../../lib/bare-mcp-http.mjs";

const newServer = () => {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "noop",
    {
      description: "Does nothing; measures the serving overhead.",
      inputSchema: z.object({
        q: z.string().describe("Any text"),
        n: z.number().int().optional().describe("A number"),
      }),
    },
    async () => ({
      content: [{ type: "text", text: JSON.stringify({ ok: true }) }],
      structuredContent: { ok: true },
    }),
  );
  return server;
};

serveBareMcp(newServer, process.argv[2] ?? 0);
