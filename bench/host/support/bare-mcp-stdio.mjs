// A bare MCP SDK server with one trivial tool over stdio, the way the SDK documents it: McpServer +
// registerTool + StdioServerTransport. The baseline of the stdio start-up benchmark.
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const server = new McpServer({ name: "bare", version: "1.0.0" });
server.registerTool(
  "noop",
  {
    description: "Does nothing; measures the serving overhead.",
    inputSchema: z.object({ q: z.string().describe("Any text") }),
  },
  async () => ({ content: [{ type: "text", text: "{}" }], structuredContent: {} }),
);
await server.connect(new StdioServerTransport());
