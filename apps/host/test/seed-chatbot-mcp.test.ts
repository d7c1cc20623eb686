import type { ToolMessage } from "@langchain/core/messages";
import type { DynamicStructuredTool } from "@langchain/core/tools";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { toChatbotGuiaText, toChatbotRagResult, toChatbotTest } from "@quiver/adapters/seeds";
import type { ToolResult } from "@quiver/core";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, mcQuestions } from "../../../packages/plugins/testgen/test/llm-fixtures.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The course chatbot's MCP recipe (packages/adapters/README.md, "Python LangGraph chatbot over MCP"),
// driven the way the recipe does it, with the JS twin of its Python client: `quiver serve --demo`
// in a project with the guia, rag and testgen plugins (the LLM an emulator answering the recorded
// completion); LangChain's MultiServerMCPClient over Streamable HTTP loads the tools; each call takes
// `asignatura` from the graph state; the envelope (structuredContent) is mapped to the chatbot's shapes.

let llm: Emulator;
let project: Project;
let serve: ServeProcess;
let client: MultiServerMCPClient;
let tools: Map<string, DynamicStructuredTool>;

beforeAll(async () => {
  llm = await startEmulator();
  llm.route("POST", "/v1/chat/completions", { json: completion(mcQuestions(3)) });
  project = makeProject({
    workspace: ["@quiver/plugin-guia", "@quiver/plugin-rag", "@quiver/plugin-testgen"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        demo: true,
        aliases: { get_guia: "guia_get_guide", generate_test: "testgen_generate_test" },
        plugins: { testgen: { options: { llmBaseUrl: `${llm.url}/v1`, llmModel: "test-model" } } },
      }),
    },
  });
  serve = await startServe([], { cwd: project.dir });
  // The recipe's connection: { "quiver": { "transport": "streamable_http", "url": ".../mcp" } } in Python.
  client = new MultiServerMCPClient({
    mcpServers: { quiver: { transport: "http", url: `${serve.url}/mcp` } },
    prefixToolNameWithServerName: false,
    throwOnLoadError: true,
  });
  tools = new Map((await client.getTools()).map((t) => [t.name, t as DynamicStructuredTool]));
});
afterAll(async () => {
  await client?.close();
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await llm?.close();
});

/** The chatbot's graph state: the student's subject is chosen once, outside the model's reach. */
interface ChatState {
  readonly asignatura: string;
}

/**
 * The chatbot's tools and the mapping of each to the chatbot's shape. The host serves them under the
 * chatbot's own names: `get_guia` and `generate_test` are aliases in the project's config.
 */
const CHATBOT_TOOLS = {
  rag_search: { tool: "rag_search", shape: toChatbotRagResult },
  get_guia: { tool: "get_guia", shape: toChatbotGuiaText },
  generate_test: { tool: "generate_test", shape: toChatbotTest },
} as const;

let callId = 0;
/**
 * What the recipe's wrapper does: `asignatura` from the state into the arguments, the MCP tool
 * called with a tool call (so LangChain hands back the ToolMessage and its artifacts), the envelope
 * read from the structured content and mapped. A non-success envelope comes back from the MCP
 * adapter as a ToolException carrying the envelope's text; the mapping gets it as an error envelope.
 */
const callChatbotTool = async <N extends keyof typeof CHATBOT_TOOLS>(
  name: N,
  args: Record<string, unknown>,
  state: ChatState,
): Promise<ReturnType<(typeof CHATBOT_TOOLS)[N]["shape"]>> => {
  const { tool, shape } = CHATBOT_TOOLS[name];
  const mcpTool = tools.get(tool)!;
  const toolArgs = { ...args, asignatura: state.asignatura };
  let envelope: ToolResult;
  try {
    const message = await mcpTool.invoke({
      type: "tool_call",
      id: `call-${++callId}`,
      name: tool,
      args: toolArgs,
    });
    const artifacts = (message as ToolMessage).artifact as Array<{ type: string; data: unknown }>;
    envelope = artifacts.find((a) => a.type === "mcp_structured_content")!.data as ToolResult;
  } catch (error) {
    const text = (error as Error).message.replace(/^.*returned an error: /s, "");
    envelope = { status: "error", message: text, metadata: { tool } } as unknown as ToolResult;
  }
  return shape(envelope) as ReturnType<(typeof CHATBOT_TOOLS)[N]["shape"]>;
};

const student: ChatState = { asignatura: "metaheuristicas" };

describe("the LangGraph chatbot's recipe against quiver serve over MCP", () => {
  it("loads the chatbot's tools from the host under the chatbot's names", () => {
    for (const { tool } of Object.values(CHATBOT_TOOLS)) expect(tools.has(tool), tool).toBe(true);
    expect(tools.get("get_guia")!.schema).toEqual(tools.get("guia_get_guide")!.schema);
    expect(tools.get("rag_search")!.schema).toMatchObject({ properties: { asignatura: { type: "string" } } });
  });

  it("rag_search: {ok, total_results, results} for the state's subject", async () => {
    const r = await callChatbotTool("rag_search", { query: "¿Cómo se evalúa la asignatura?" }, student);
    expect(r.ok).toBe(true);
    expect(r.total_results).toBeGreaterThan(0);
    for (const hit of r.results) expect(hit.metadata.asignatura).toBe("metaheuristicas");
    const other = await callChatbotTool(
      "rag_search",
      { query: "¿Cómo se evalúa la asignatura?" },
      { asignatura: "modelos_avanzados_computacion" },
    );
    for (const hit of other.results) expect(hit.metadata.asignatura).toBe("modelos_avanzados_computacion");
  });

  it("get_guia: the guide of the state's subject as text", async () => {
    const summary = await callChatbotTool("get_guia", {}, student);
    expect(summary).toMatch(/^Guía docente de Metaheurísticas/);
    expect(summary).toContain("Breve descripción de contenidos:");
    const section = await callChatbotTool("get_guia", { key: "evaluación" }, student);
    expect(section).toMatch(/^Guía docente de Metaheurísticas.*, sección evaluación:\n/);
  });

  it("get_guia: a subject without a guide answers an Error: line", async () => {
    const text = await callChatbotTool("get_guia", {}, { asignatura: "física cuántica" });
    expect(text).toMatch(/^Error: .*no teaching guide for "física cuántica"/s);
  });

  it("generate_test: nested questions for the state's subject", async () => {
    const t = await callChatbotTool(
      "generate_test",
      { topic: "algoritmos genéticos", num_questions: 3, question_type: "multiple_choice" },
      student,
    );
    expect(t).toMatchObject({ ok: true, asignatura: "metaheuristicas", generated_by: "llm" });
    expect(t.questions).toHaveLength(3);
    for (const q of t.questions) {
      expect(q.options.filter((o) => o.is_correct)).toHaveLength(1);
      expect(q.answer.text).toBe("Algoritmo genético");
    }
  });
});
