import { describe, expect, it } from "vitest";
import { normalizeResults } from "../src/internal/normalize-results.js";

const meta = (source: string | null, asignatura: string | null = null) =>
  expect.objectContaining({ source, asignatura });

describe("normalizeResults: the shapes RAG services return", () => {
  it("the original service: {results: [{content, metadata, score}], total_results}", () => {
    const out = normalizeResults(
      {
        query: "q",
        total_results: 12,
        results: [
          {
            content: "A",
            metadata: { source: "tema1.pdf", asignatura: "metaheuristicas", tipo_documento: "apuntes" },
            score: 0.5,
          },
          { content: "B", metadata: { source: "tema2.pdf", asignatura: "metaheuristicas" }, score: 0.9 },
        ],
      },
      "q",
      5,
    );
    expect(out.total_results).toBe(12);
    expect(out.results.map((r) => r.content)).toEqual(["B", "A"]);
    expect(out.results[1]!.metadata).toEqual({
      source: "tema1.pdf",
      asignatura: "metaheuristicas",
      tipo_documento: "apuntes",
    });
  });

  it("text / snippet / payload (string) for the content; similarity for the score", () => {
    const out = normalizeResults(
      {
        results: [
          { text: "T", similarity: 0.7 },
          { snippet: "S", similarity: 0.8 },
          { payload: "P", similarity: 0.1 },
        ],
      },
      "q",
      5,
    );
    expect(out.results.map((r) => [r.content, r.score])).toEqual([
      ["S", 0.8],
      ["T", 0.7],
      ["P", 0.1],
    ]);
  });

  it("a distance becomes a score where higher is better: 1 / (1 + d)", () => {
    const out = normalizeResults(
      {
        results: [
          { content: "far", distance: 3 },
          { content: "near", distance: 0.25 },
          { content: "same", distance: 0 },
        ],
      },
      "q",
      5,
    );
    expect(out.results.map((r) => [r.content, r.score])).toEqual([
      ["same", 1],
      ["near", 0.8],
      ["far", 0.25],
    ]);
  });

  it("Qdrant points/query (reference 5.2): {result: {points: [{id, version, score, payload}]}, status, time}", () => {
    const out = normalizeResults(
      {
        result: {
          points: [
            {
              id: 4,
              version: 0,
              score: 1.362,
              payload: {
                text: "Los algoritmos genéticos…",
                metadata: { source: "tema5.pdf", asignatura: "metaheuristicas" },
              },
            },
            {
              id: "a1b2",
              version: 3,
              score: 0.871,
              payload: {
                page_content: "La búsqueda tabú…",
                source: "tema4.pdf",
                asignatura: "metaheuristicas",
                page: 7,
              },
            },
          ],
        },
        status: "ok",
        time: 0.0001,
      },
      "q",
      5,
    );
    expect(out.results).toEqual([
      {
        content: "Los algoritmos genéticos…",
        metadata: { source: "tema5.pdf", asignatura: "metaheuristicas" },
        score: 1.362,
      },
      {
        content: "La búsqueda tabú…",
        metadata: { source: "tema4.pdf", asignatura: "metaheuristicas", page: 7 },
        score: 0.871,
      },
    ]);
  });

  it("Qdrant points/search legacy (reference 5.3): result as an array; points without a payload carry no text and are dropped", () => {
    const recorded = {
      result: [
        { id: 4, score: 1.362, payload: null, version: 0 },
        { id: 2, score: 0.871, payload: null, version: 0 },
      ],
      status: "ok",
      time: 0.000093972,
    };
    expect(normalizeResults(recorded, "q", 5)).toEqual({ query: "q", total_results: 0, results: [] });
    const withPayload = {
      result: [{ id: 4, score: 1.362, payload: { content: "X", file: "f.md" }, version: 0 }],
      status: "ok",
      time: 0.1,
    };
    expect(normalizeResults(withPayload, "q", 5).results[0]).toEqual({
      content: "X",
      metadata: { file: "f.md", source: "f.md", asignatura: null },
      score: 1.362,
    });
  });

  it("metadata at several depths: meta, payload_metadata, metadata.metadata, document.metadata", () => {
    const out = normalizeResults(
      {
        results: [
          { content: "A", meta: { source: "a.md" } },
          { content: "B", payload_metadata: { filename: "b.md", subject: "mac" } },
          { content: "C", metadata: { metadata: { source: "c.md", asignatura: "x" } } },
          { document: { page_content: "D", metadata: { source: "d.md" } } },
        ],
      },
      "q",
      5,
    );
    expect(out.results.map((r) => [r.content, r.metadata.source, r.metadata.asignatura])).toEqual([
      ["A", "a.md", null],
      ["B", "b.md", "mac"],
      ["C", "c.md", "x"],
      ["D", "d.md", null],
    ]);
  });

  it("Elasticsearch hits.hits with _source and _score, and hits.total.value", () => {
    const out = normalizeResults(
      {
        hits: {
          total: { value: 42 },
          hits: [{ _id: "1", _score: 3.2, _source: { text: "E", source: "e.md" } }],
        },
      },
      "q",
      5,
    );
    expect(out).toMatchObject({
      total_results: 42,
      results: [{ content: "E", metadata: meta("e.md"), score: 3.2 }],
    });
  });

  it("Chroma's columnar answer", () => {
    const out = normalizeResults(
      {
        ids: [["x", "y"]],
        documents: [["X", "Y"]],
        metadatas: [[{ source: "x.md" }, { source: "y.md" }]],
        distances: [[0.5, 1]],
      },
      "q",
      5,
    );
    expect(out.results.map((r) => [r.content, r.metadata.source, r.score])).toEqual([
      ["X", "x.md", 1 / 1.5],
      ["Y", "y.md", 0.5],
    ]);
  });

  it("a bare array, LangChain's page_content, strings, and a single {content} object", () => {
    expect(
      normalizeResults([{ page_content: "L", metadata: { source: "l.md" } }, "plain"], "q", 5).results.map(
        (r) => r.content,
      ),
    ).toEqual(["L", "plain"]);
    expect(
      normalizeResults({ content: "only", metadata: { source: "o.md" }, score: 1 }, "q", 5).results,
    ).toHaveLength(1);
    expect(normalizeResults({ unexpected: true }, "q", 5).results).toEqual([]);
  });

  it("without scores the service's order is kept; top_k cuts; the id is the source of last resort", () => {
    const out = normalizeResults(
      {
        data: [
          { id: 9, content: "first" },
          { id: 8, content: "second" },
          { id: 7, content: "third" },
        ],
      },
      "q",
      2,
    );
    expect(out.results.map((r) => [r.content, r.metadata.source, r.score])).toEqual([
      ["first", "9", null],
      ["second", "8", null],
    ]);
    expect(out.total_results).toBe(3);
  });
});
