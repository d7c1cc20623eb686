import { createCatalog } from "@quiver/core";
import { describeRecordReplay, startEmulator } from "@quiver/testing";
import { createRagPlugin } from "../src/index.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "rag-canary-key-1e2d3c4b";

describeRecordReplay({
  title: "rag_search over an HTTP RAG service",
  start: async () => {
    const up = await startEmulator();
    up.route("POST", "/search", (req) => {
      const { query, top_k } = req.json as { query: string; top_k?: number };
      const results = [
        "La evaluación consta de un examen final.",
        "Los algoritmos genéticos mantienen una población.",
      ]
        .slice(0, top_k ?? 2)
        .map((content, i) => ({ content, metadata: { source: `doc${i}.pdf` }, score: 0.9 - i / 4 }));
      return { json: { query, total_results: results.length, results } };
    });
    return up;
  },
  catalog: (http, up) => {
    const catalog = createCatalog({ http, env: {} });
    catalog.register(createRagPlugin(), { serviceUrl: up.url, apiKey: CANARY });
    return catalog;
  },
  calls: [
    { tool: "rag_search", input: { query: "¿cómo se evalúa?", asignatura: "metaheuristicas", top_k: 1 } },
    { tool: "rag_search", input: { query: "algoritmos genéticos" } },
  ],
  statuses: ["success", "success"],
  canary: CANARY,
});
