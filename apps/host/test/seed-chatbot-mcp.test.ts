import type { ToolMessage } from "@langchain/core/messages";
import type { DynamicStructuredTool } from "@langchain/core/tools";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, mcQuestions } from "../../../packages/plugins/testgen/test/llm-fixtures.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The course chatbot's MCP recipe (packages/adapters/README.md, "Chatbot"), driven the way a Python
// LangGraph app does it, with the JS twin of its client: `quiver serve --profile chatbot --demo` in a
// project with the guia, rag and testgen plugins (the LLM an emulator answering the recorded
// completion); LangChain's MultiServerMCPClient over Streamable HTTP loads the chatbot's own tools,
// the graph state's `asignatura` travels in the X-Quiver-Session-Values header, and what comes back
// is the chatbot's own value: no mapping on the client.

let llm: Emulator;
let project: Project;
let serve: ServeProcess;
const clients: MultiServerMCPClient[] = [];

beforeAll(async () => {
  llm = await startEmulator();
  llm.route("POST", "/v1/chat/completions", { json: completion(mcQuestions(3)) });
  project = makeProject({
    workspace: ["@quiver/plugin-guia", "@quiver/plugin-rag", "@quiver/plugin-testgen"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        demo: true,
        profile: "chatbot",
        plugins: { testgen: { options: { llmBaseUrl: `${llm.url}/v1`, llmModel: "test-model" } } },
      }),
    },
  });
  serve = await startServe([], { cwd: project.dir });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
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
 * The recipe's connection, once per conversation: { "quiver": { "transport": "streamable_http",
 * "url": ".../mcp", "headers": { "X-Quiver-Session-Values": json.dumps(state) } } } in Python.
 */
const toolsFor = async (state: ChatState): Promise<Map<string, DynamicStructuredTool>> => {
  const client = new MultiServerMCPClient({
    mcpServers: {
      quiver: {
        transport: "http",
        url: `${serve.url}/mcp`,
        headers: { "X-Quiver-Session-Values": JSON.stringify(state) },
      },
    },
    prefixToolNameWithServerName: false,
    throwOnLoadError: true,
  });
  clients.push(client);
  return new Map((await client.getTools()).map((t) => [t.name, t as DynamicStructuredTool]));
};

let callId = 0;
/** A tool call as the graph's ToolNode makes it: the model's arguments, the ToolMessage back. */
const invoke = async (
  tools: Map<string, DynamicStructuredTool>,
  name: string,
  args: Record<string, unknown>,
) => {
  const message = (await tools.get(name)!.invoke({
    type: "tool_call",
    id: `call-${++callId}`,
    name,
    args,
  })) as ToolMessage;
  const artifacts = (message.artifact ?? []) as Array<{ type: string; data: unknown }>;
  // LangChain.js hands the text block over as its JSON (with the structured content beside it).
  const block = JSON.parse(message.content as string) as { type: string; text: string };
  return {
    text: block.text,
    structured: artifacts.find((a) => a.type === "mcp_structured_content")?.data as Record<string, any>,
  };
};

const student: ChatState = { asignatura: "metaheuristicas" };

describe("the LangGraph chatbot's recipe against quiver serve --profile chatbot over MCP", () => {
  it("loads the chatbot's tools under its own names, asignatura left to the state", async () => {
    const tools = await toolsFor(student);
    for (const name of ["rag_search", "get_guia", "generate_test"]) expect(tools.has(name), name).toBe(true);
    expect(JSON.stringify(tools.get("rag_search")!.schema)).not.toContain("asignatura");
  });

  it("rag_search: {ok, total_results, results} for the state's subject, whatever the model says", async () => {
    const tools = await toolsFor(student);
    const { structured } = await invoke(tools, "rag_search", {
      query: "¿Cómo se evalúa la asignatura?",
      asignatura: "modelos_avanzados_computacion",
    });
    expect(structured.ok).toBe(true);
    expect(structured.total_results).toBe(structured.results.length);
    expect(structured.results.length).toBeGreaterThan(0);
    for (const hit of structured.results) expect(hit.metadata.asignatura).toBe("metaheuristicas");
    const other = await toolsFor({ asignatura: "modelos_avanzados_computacion" });
    const r = await invoke(other, "rag_search", { query: "¿Cómo se evalúa la asignatura?" });
    for (const hit of r.structured.results)
      expect(hit.metadata.asignatura).toBe("modelos_avanzados_computacion");
  });

  it("get_guia: the str the chatbot returned (json.dumps of the summary or the section)", async () => {
    const tools = await toolsFor(student);
    const summary = await invoke(tools, "get_guia", {});
    expect(JSON.parse(summary.text)).toMatchObject({
      subject: "metaheuristicas",
      asignatura: expect.stringMatching(/^Guía docente de Metaheurísticas/),
    });
    expect(summary.structured).toEqual({ result: summary.text });
    const section = await invoke(tools, "get_guia", { key: "competencias" });
    expect(JSON.parse(section.text)).toEqual(expect.any(Object));
  });

  it('get_guia: a subject without a guide answers "No guia found" (their test\'s assertion)', async () => {
    const tools = await toolsFor({ asignatura: "física cuántica" });
    const { text } = await invoke(tools, "get_guia", {});
    expect(text).toContain("No guia found");
    expect(text).toBe("No guia found for subject: física cuántica");
  });

  it("generate_test: a list of {question: {question_text, difficulty}, options}", async () => {
    const tools = await toolsFor(student);
    const { structured, text } = await invoke(tools, "generate_test", {
      topic: "algoritmos genéticos",
      num_questions: 3,
    });
    const list = structured.result as Array<{ question: Record<string, string>; options: any[] }>;
    expect(JSON.parse(text)).toEqual(list);
    expect(list).toHaveLength(3);
    for (const t of list) {
      expect(Object.keys(t.question).sort()).toEqual(["difficulty", "question_text"]);
      expect(t.options.filter((o) => o.is_correct)).toHaveLength(1);
    }
  });
});
