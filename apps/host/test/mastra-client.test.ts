import { MCPClient } from "@mastra/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// Mastra's MCP client (`@mastra/mcp`) throws away a result flagged `isError` and validates the
// structured content of every other result against the tool's advertised output schema: a partial
// answer must reach the agent, whole and valid (issue 37).
let project: Project;
let serve: ServeProcess;
beforeAll(async () => {
  project = makeProject({ workspace: ["@quiver/plugin-testgen"] });
  serve = await startServe([], { cwd: project.dir });
});
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

describe("Mastra's MCP client against quiver serve", () => {
  it("keeps a partial answer: testgen's questions without an LLM reach the agent", async () => {
    const mcp = new MCPClient({
      id: "quiver-partial",
      servers: { quiver: { url: new URL(`${serve.url}/mcp`) } },
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
