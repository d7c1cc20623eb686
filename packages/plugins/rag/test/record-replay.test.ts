import { createCatalog } from "@quiver/core";
import { type Emulator, recordThenReplay, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRagPlugin } from "../src/index.js";

/** The key the recording runs with (a canary): it must never appear in a cassette. */
const CANARY = "rag-canary-key-1e2d3c4b";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
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
});
afterAll(() => up.close());

describe("rag_search over an HTTP RAG service, recorded and replayed (core's cassette client)", () => {
  it("replay with the network closed gives the recorded envelopes; no key in a cassette", async () => {
    const r = await recordThenReplay({
      emulator: up,
      calls: [
        { tool: "rag_search", input: { query: "¿cómo se evalúa?", asignatura: "metaheuristicas", top_k: 1 } },
        { tool: "rag_search", input: { query: "algoritmos genéticos" } },
      ],
      catalog: (http) => {
        const catalog = createCatalog({ http, env: {} });
        catalog.register(createRagPlugin(), { serviceUrl: up.url, apiKey: CANARY });
        return catalog;
      },
    });
    expect(r.live.map((e) => e.status)).toEqual(["success", "success"]);
    expect(r.replayed).toEqual(r.live);
    expect(r.upstreamRequestsDuringReplay).toBe(0);
    expect(r.cassettes.length).toBe(2);
    for (const { text } of r.cassettes) expect(text).not.toContain(CANARY);
  });
});
