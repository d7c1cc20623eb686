import { createMCPClient } from "@ai-sdk/mcp";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { MCPClient } from "@mastra/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

let project: Project;
let serve: ServeProcess;
beforeAll(async () => {
  // testgen without an LLM answers `partial`: Mastra's client must keep it (issue 37).
  project = makeProject({ fixtures: ["echo"], workspace: ["@quiver/plugin-testgen"] });
  serve = await startServe([], {
    cwd: project.dir,
    env: { QUIVER_TOKENS: "tok-ai=ai-user,tok-lc=lc-user,tok-ma=ma-user" },
  });
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

// Mastra's MCP client throws away a result flagged `isError` and validates the structured content of
// every other result against the tool's advertised output schema: a partial answer must reach the
// agent, whole and valid.
describe("Mastra's MCP client against quiver serve", () => {
  it("keeps a partial answer: testgen's questions without an LLM reach the agent", async () => {
    const mcp = new MCPClient({
      id: "quiver-partial",
      servers: {
        quiver: {
          url: new URL(`${serve.url}/mcp`),
          requestInit: { headers: { authorization: "Bearer tok-ma" } },
        },
      },
    });
    try {
      const tools = await mcp.listTools();
      const generate = tools.quiver_testgen_generate_test;
      expect(generate, Object.keys(tools).join(", ")).toBeDefined();
      const out = (await generate!.execute!(
        { topic: "Turing machines", num_questions: 2, question_type: "multiple_choice" },
        {} as never,
      )) as { status?: string; message?: string; data?: { questions?: unknown[]; generated_by?: string } };
      expect(out.status).toBe("partial");
      expect(out.message).toMatch(/No LLM configured/);
      expect(out.data?.generated_by).toBe("rules");
      expect(out.data?.questions).toHaveLength(2);
    } finally {
      await mcp.disconnect();
    }
  });
});
