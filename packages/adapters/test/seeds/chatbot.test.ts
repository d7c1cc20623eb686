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
import { type ChatbotTools, createChatbotTools, toChatbotGuia } from "../../src/seeds.js";

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

describe("rag_search: {ok, total_results, results}", () => {
  it("finds the subject's passages for the student's question", async () => {
    const r = await tools.rag_search({
      query: "¿Cómo se evalúa la asignatura?",
      asignatura: state.asignatura,
    });
    expect(r.ok).toBe(true);
    expect(r.total_results).toBeGreaterThan(0);
    expect(r.results.length).toBeGreaterThan(0);
    for (const hit of r.results) {
      expect(hit.metadata.asignatura).toBe("metaheuristicas");
      expect(typeof hit.content).toBe("string");
    }
    expect(r.error).toBeUndefined();
  });

  it("ok false with the error when the call fails", async () => {
    const r = await tools.rag_search({ query: "", asignatura: state.asignatura });
    expect(r).toMatchObject({ ok: false, total_results: 0, results: [] });
    expect(r.error).toMatch(/query/);
  });
});

describe("get_guia: a string", () => {
  it("the summary as text, with the brief description of the contents", async () => {
    const text = await tools.get_guia({ asignatura: state.asignatura });
    expect(typeof text).toBe("string");
    expect(text).toMatch(/^Guía docente de Metaheurísticas/);
    expect(text).toContain("Breve descripción de contenidos:");
    expect(text).toMatch(/Secciones: .*evaluación/);
  });

  it("one section as text", async () => {
    const text = await tools.get_guia({ asignatura: state.asignatura, key: "evaluación" });
    expect(text).toMatch(/^Guía docente de Metaheurísticas.*, sección evaluación:\n/);
    expect(text.split("\n").length).toBeGreaterThan(2);
    expect(text).not.toContain("{");
  });

  it("an unknown subject is an Error: line naming what exists", async () => {
    const text = await tools.get_guia({ asignatura: "física cuántica" });
    expect(text).toMatch(/^Error: There is no teaching guide for "física cuántica"/);
    expect(text).toContain("metaheuristicas");
  });

  it("the structured view spells brief_description as the chatbot did", async () => {
    const r = await catalog.call("guia_get_guide", { asignatura: state.asignatura });
    const g = toChatbotGuia(r);
    expect(g.ok).toBe(true);
    expect(g.brief_description!.length).toBeGreaterThan(0);
    expect(g).not.toHaveProperty("breve_descripcion");
    expect(g.brief_description).toEqual((r.data as { breve_descripcion: string[] }).breve_descripcion);
  });
});

describe("generate_test: nested questions", () => {
  it("each question holds its options, which says which is correct, and its answer", async () => {
    const t = await tools.generate_test({
      topic: "algoritmos genéticos",
      num_questions: 2,
      question_type: "multiple_choice",
      asignatura: state.asignatura,
    });
    expect(t).toMatchObject({ ok: true, asignatura: "metaheuristicas", generated_by: "llm" });
    expect(t.questions).toHaveLength(2);
    const q = t.questions[0]!;
    expect(q.question_type).toBe("multiple_choice");
    expect(q.options).toHaveLength(4);
    expect(q.options.filter((o) => o.is_correct)).toEqual([
      { answer_text: "Algoritmo genético", is_correct: true },
    ]);
    expect(q.answer).toEqual({
      text: "Algoritmo genético",
      explanation: "Los algoritmos genéticos mantienen una población de soluciones [1].",
    });
    expect(q).not.toHaveProperty("correct_index");
  });

  it("ok false with the error for an invalid request", async () => {
    const t = await tools.generate_test({ topic: "x", num_questions: 50, asignatura: state.asignatura });
    expect(t.ok).toBe(false);
    expect(t.questions).toEqual([]);
    expect(t.error).toMatch(/num_questions/);
  });
});
