import { existsSync } from "node:fs";
import { fail } from "@quiver/core";
import type { IndexStats, SearchIndex } from "@quiver/search";
import type { RagOutput, RagQuery } from "../output.js";
import { slug } from "../slug.js";

/** The embedded backend: an open @quiver/search index. */
export interface EmbeddedBackend {
  search(q: RagQuery): Promise<RagOutput>;
  stats(): Promise<IndexStats>;
  close(): Promise<void>;
}

/**
 * Opens the index file for searching. A missing file is `unavailable` with the command that builds it
 * (the index is never created empty behind the user's back).
 */
export const openEmbeddedBackend = async (path: string): Promise<EmbeddedBackend> => {
  if (!existsSync(path)) {
    throw fail.unavailable(`There is no course-material index at ${path}.`, {
      retryable: false,
      suggestion:
        "Ask the operator to run `quiver rag index <folder>` (or set RAG_INDEX_PATH to an existing index).",
    });
  }
  // Loaded when the index is opened (at the first call), not when the plugin is.
  const { openSearchIndex } = await import("@quiver/search");
  const index: SearchIndex = await openSearchIndex({ path });
  return {
    search: async (q) => {
      const metadata: Record<string, string> = {};
      if (q.asignatura) metadata.asignatura = slug(q.asignatura);
      if (q.tipo_documento) metadata.tipo_documento = slug(q.tipo_documento);
      const res = await index.search(q.query, {
        topK: q.topK,
        ...(Object.keys(metadata).length > 0 ? { filters: { metadata } } : {}),
      });
      return {
        query: q.query,
        total_results: res.total,
        results: res.results.map((hit) => {
          const m = hit.metadata;
          return {
            content: hit.text,
            metadata: {
              ...m,
              source: typeof m.source === "string" ? m.source : hit.docId,
              asignatura: typeof m.asignatura === "string" ? m.asignatura : null,
              ...(hit.title ? { title: hit.title } : {}),
              doc_id: hit.docId,
              chunk: hit.chunk,
              chunks: hit.chunks,
            },
            score: Math.round(hit.score * 10_000) / 10_000,
          };
        }),
      };
    },
    stats: () => index.stats(),
    close: () => index.close(),
  };
};
