import { createMCPClient } from "@ai-sdk/mcp";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

let project: Project;
let serve: ServeProcess;
beforeAll(async () => {
  project = makeProject({ fixtures: ["echo"] });
  serve = await startServe([], { cwd: project.dir, env: { QUIVER_TOKENS: "tok-ai=ai-user,tok-lc=lc-user" } });
});
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

describe("the Vercel AI SDK MCP client against quiver serve", () => {
  it("loads the discovered tools and runs one as the token's principal", async () => {
    const client = await createMCPClient({
      transport: { type: "http", url: `${serve.url}/mcp`, headers: { authorization: "Bearer tok-ai" } },
    });
    try {
      const tools = await client.tools();
      expect(Object.keys(tools)).toEqual(
        expect.arrayContaining(["echo_text", "echo_whoami", "quiver_find_tools"]),
      );
      const out = await tools.echo_whoami!.execute({}, { toolCallId: "c1", messages: [], context: {} });
      expect(JSON.stringify(out)).toContain("ai-user");
      const echo = await tools.echo_text!.execute(
        { text: "via ai sdk" },
        { toolCallId: "c2", messages: [], context: {} },
      );
      expect(JSON.stringify(echo)).toContain("via ai sdk");
    } finally {
      await client.close();
    }
  });
});

describe("LangChain MCP adapters against quiver serve", () => {
  it("loads the discovered tools as LangChain tools and invokes them", async () => {
    const client = new MultiServerMCPClient({
      mcpServers: {
        quiver: { transport: "http", url: `${serve.url}/mcp`, headers: { authorization: "Bearer tok-lc" } },
      },
      prefixToolNameWithServerName: false,
      throwOnLoadError: true,
    });
    try {
      const tools = await client.getTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["echo_text", "echo_whoami", "quiver_find_tools"]),
      );
      const who = await tools.find((t) => t.name === "echo_whoami")!.invoke({});
      expect(JSON.stringify(who)).toContain("lc-user");
      const found = await tools
        .find((t) => t.name === "quiver_find_tools")!
        .invoke({ need: "echo some text" });
      expect(JSON.stringify(found)).toContain("echo_text");
    } finally {
      await client.close();
    }
  });
});
