import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Catalog, createCatalog } from "@quiver/core";
import { createGuiaPlugin } from "@quiver/plugin-guia";
import { createRagPlugin } from "@quiver/plugin-rag";
import { createTestgenPlugin } from "@quiver/plugin-testgen";
import { type Emulator, seedPluginDemo, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, mcQuestions } from "../../../plugins/testgen/test/llm-fixtures.js";
import { type ChatbotTools, createChatbotTools } from "../../src/seeds.js";

// The course chatbot's own tool calls (rag_search, get_guia, generate_test with `asignatura` from
// its graph state), through its mapping against the real guia, rag and testgen plugins: the two UGR
// guides and the demo index the plugins ship, and an LLM emulator answering the recorded completion.

/** The LangGraph state the chatbot's tool node reads `asignatura` from. */
const state = { asignatura: "metaheuristicas", messages: [] as unknown[] };

let llm: Emulator;
let dir: string;
let catalog: Catalog;
let tools: ChatbotTools;
beforeAll(async () => {
  llm = await startEmulator();
  llm.route("POST", "/v1/chat/completions", { json: completion(mcQuestions(2)) });
  dir = mkdtempSync(join(tmpdir(), "quiver-chatbot-"));
  const [guides, index] = await Promise.all([
    seedPluginDemo(createGuiaPlugin(), { cacheDir: join(dir, "guia") }),
    seedPluginDemo(createRagPlugin(), { cacheDir: join(dir, "rag") }),
  ]);
  catalog = createCatalog({ env: {} });
  catalog.register(createGuiaPlugin(), guides.options);
  catalog.register(createRagPlugin(), index.options);
  catalog.register(createTestgenPlugin(), { llmBaseUrl: `${llm.url}/v1`, llmModel: "test-model" });
  tools = createChatbotTools(catalog, { session: { id: "student-42" } });
}, 30_000);
afterAll(async () => {
  await catalog?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("rag_search: {ok, query, total_results, results}", () => {
  it("finds the subject's passages; total_results is the number returned", async () => {
    const r = await tools.rag_search({
      query: "¿Cómo se evalúa la asignatura?",
      asignatura: state.asignatura,
    });
    if (!r.ok) throw new Error(r.error);
    expect(Object.keys(r).sort()).toEqual(["ok", "query", "results", "total_results"]);
    expect(r.total_results).toBe(r.results.length);
    expect(r.results.length).toBeGreaterThan(0);
    for (const hit of r.results) {
      expect(hit.metadata.asignatura).toBe("metaheuristicas");
      expect(typeof hit.content).toBe("string");
    }
    const one = await tools.rag_search({ query: "evaluación", asignatura: state.asignatura, top_k: 1 });
    expect(one).toMatchObject({ ok: true, total_results: 1 });
  });

  it('{"ok": False, "error": "Unexpected error"} when the call fails', async () => {
    const r = await tools.rag_search({ query: "", asignatura: state.asignatura });
    expect(r).toEqual({ ok: false, error: "Unexpected error" });
  });
});

describe("get_guia: the str json.dumps wrote", () => {
  it("the summary {subject, asignatura, grado, curso, url, brief_description}", async () => {
    const text = await tools.get_guia({ asignatura: state.asignatura });
    expect(text).toMatch(/^\{"subject": "metaheuristicas", "asignatura": "Guía docente de Metaheurísticas/);
    const summary = JSON.parse(text);
    expect(Object.keys(summary)).toEqual([
      "subject",
      "asignatura",
      "grado",
      "curso",
      "url",
      "brief_description",
    ]);
    const r = await catalog.call("guia_get_guide", { asignatura: state.asignatura });
    expect(summary.brief_description).toEqual(
      (r.data as { breve_descripcion: string[] }).breve_descripcion.slice(0, 3),
    );
  });

  it("one section, a dot path included", async () => {
    const text = await tools.get_guia({ asignatura: state.asignatura, key: "evaluación" });
    const r = await catalog.call("guia_get_guide", { asignatura: state.asignatura, key: "evaluación" });
    expect(JSON.parse(text)).toEqual((r.data as { value: unknown }).value);
  });

  it("the chatbot's strings when there is nothing to return", async () => {
    expect(await tools.get_guia({})).toBe("No guia found for subject");
    expect(await tools.get_guia({ asignatura: "física cuántica" })).toBe(
      "No guia found for subject: física cuántica",
    );
    expect(await tools.get_guia({ asignatura: state.asignatura, key: "nada" })).toBe(
      "Key 'nada' not present in guia for subject metaheuristicas",
    );
  });
});

describe("generate_test: list[MultipleChoiceTest]", () => {
  it("[{question: {question_text, difficulty}, options}] with one correct option", async () => {
    const list = await tools.generate_test({
      topic: "algoritmos genéticos",
      num_questions: 2,
      question_type: "multiple_choice",
      asignatura: state.asignatura,
    });
    expect(list).toHaveLength(2);
    const q = list[0]!;
    expect(Object.keys(q).sort()).toEqual(["options", "question"]);
    expect(q.question.question_text).toMatch(/población/);
    expect(q.options).toHaveLength(4);
    expect(q.options.filter((o) => o.is_correct)).toEqual([
      { answer_text: "Algoritmo genético", is_correct: true },
    ]);
  });

  it("the chatbot's fallback for an invalid request", async () => {
    const list = await tools.generate_test({
      topic: "grafos",
      num_questions: 50,
      asignatura: state.asignatura,
    });
    expect(list).toEqual([
      { question: { question_text: "¿Qué has aprendido sobre grafos?", difficulty: "medium" }, options: [] },
    ]);
  });
});
