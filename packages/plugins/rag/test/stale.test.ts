import { describeStaleFallback, startEmulator } from "@quiver/testing";
import { createRagPlugin } from "../src/index.js";

const PASSAGES = {
  results: [
    {
      content: "La evaluación ordinaria consta de un examen final (50%) y prácticas (50%).",
      metadata: { source: "guia.pdf", asignatura: "metaheuristicas" },
      score: 0.83,
    },
  ],
};

describeStaleFallback({
  upstream: "the RAG service",
  plugin: createRagPlugin,
  start: async () => {
    const up = await startEmulator();
    up.route("POST", "/search", { json: PASSAGES });
    return { up, options: { serviceUrl: up.url } };
  },
  tool: "rag_search",
  input: { query: "¿cómo se evalúa?", asignatura: "metaheuristicas" },
  // rag_search keeps no cache: any later call goes to the service.
  afterMs: 10 * 60_000,
  errorKind: "unavailable",
  unansweredInput: { query: "algoritmos genéticos", asignatura: "metaheuristicas" },
});
