import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { type Catalog, createCatalog } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { testPlugin } from "./fixtures/test-plugin.js";
import { listen } from "./helpers.js";

let catalog: Catalog;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
let client: MultiServerMCPClient;

beforeAll(async () => {
  catalog = createCatalog({ env: {} });
  catalog.register(testPlugin);
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-lc": "lc-user" } });
  http = await listen((req, res) => void handler(req, res));
  client = new MultiServerMCPClient({
    mcpServers: {
      quiver: { transport: "http", url: `${http.url}/mcp`, headers: { authorization: "Bearer tok-lc" } },
    },
    prefixToolNameWithServerName: false,
    throwOnLoadError: true,
  });
});
afterAll(async () => {
  await client.close();
  await handler.close();
  await http.close();
  await catalog.close();
});

describe("LangChain MCP adapters (@langchain/mcp-adapters) against the Streamable HTTP server", () => {
  it("loads the tools as LangChain structured tools with their schemas", async () => {
    const tools = await client.getTools();
    expect(tools.map((t) => t.name)).toEqual([
      "test_echo",
      "test_fail",
      "test_progress",
      "test_wait_upstream",
      "test_whoami",
    ]);
    const echo = tools.find((t) => t.name === "test_echo")!;
    expect(echo.description).toBe("Echoes the text back. Use this to check the connection.");
    expect(echo.schema).toMatchObject({ type: "object", required: ["text"] });
  });

  it("invokes a tool and gets the summary and the data", async () => {
    const tools = await client.getTools();
    const out = await tools.find((t) => t.name === "test_echo")!.invoke({ text: "from langchain", times: 1 });
    const text = JSON.stringify(out);
    expect(text).toContain("test_echo succeeded.");
    expect(text).toContain("from langchain");
  });

  it("sees the token's principal inside the tool", async () => {
    const tools = await client.getTools();
    const out = await tools.find((t) => t.name === "test_whoami")!.invoke({});
    expect(JSON.stringify(out)).toContain("lc-user");
  });

  it("surfaces a failing tool's isError result as a tool error carrying the message and suggestion", async () => {
    const tools = await client.getTools();
    const failing = tools.find((t) => t.name === "test_fail")!;
    const outcome = await failing.invoke({ reason: "langchain" }).then(
      (value) => ({ threw: false, text: JSON.stringify(value) }),
      (error: unknown) => ({ threw: true, text: String(error) }),
    );
    expect(outcome.text).toContain("Refused: langchain");
    expect(outcome.text).toContain("Ask about something else.");
  });
});
