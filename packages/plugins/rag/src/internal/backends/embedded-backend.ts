import { existsSync } from "node:fs";
import { fail, type PluginSetup, slug } from "@quiver/core";
import { describeLocation, type IndexLocation, indexLocationOf, type RagConfig } from "../../config.js";
import { documentUri } from "../../resources.js";
import type { RagOutput, RagQuery } from "../../tools/search.js";

/** The embedded backend: an open @quiver/search index. */
export type EmbeddedBackend = Awaited<ReturnType<typeof openEmbeddedBackend>>;

const missing = (where: string) =>
  fail.unavailable(`There is no course-material index at ${where}.`, {
    retryable: false,
    suggestion:
      "Ask the operator to run `quiver rag index <folder>` (or set RAG_INDEX_PATH to an existing index).",
  });

/**
 * Opens the index (a SQLite file, or an index in PostgreSQL) for searching. A missing file, or an empty
 * PostgreSQL index, is `unavailable` with the command that builds it (the index is never created empty
 * behind the user's back); a database that cannot be reached is `unavailable` and retryable.
 */
export const openEmbeddedBackend = async (location: IndexLocation) => {
  if ("path" in location && !existsSync(location.path)) throw missing(location.path);
  // Loaded when the index is opened (at the first call), not when the plugin is.
  const { openSearchIndex, listAllDocuments, SearchError } = await import("@quiver/search");
  /**
   * Rethrows a database that cannot be reached as `unavailable` (retryable), an option the index refuses
   * (`invalid_option`) as `invalid_input`, any other error as it is.
   */
  const rethrow = (error: unknown): never => {
    if (SearchError.isInstance(error) && error.code === "invalid_option")
      throw fail.invalidInput(error.message);
    if (!SearchError.isInstance(error) || error.code !== "unavailable") throw error;
    // Retryable, as every `unavailable` is by default.
    throw fail.unavailable(`The course-material index database is unavailable: ${error.message}`, {
      suggestion: "Try again shortly; the operator should check that PostgreSQL (DATABASE_URL) is running.",
    });
  };
  const index = await openSearchIndex(location).catch(rethrow);
  if (!("path" in location) && (await index.stats().catch(rethrow)).documents === 0) {
    await index.close();
    throw missing(describeLocation(location));
  }
  return {
    search: async (q: RagQuery): Promise<RagOutput> => {
      const { asignatura: a, tipo_documento: t } = q;
      const metadata = { ...(a && { asignatura: slug(a) }), ...(t && { tipo_documento: slug(t) }) };
      const res = await index.search(q.query, { topK: q.topK, filters: { metadata } }).catch(rethrow);
      return {
        query: q.query,
        total_results: res.total,
        results: res.results.map(({ text, metadata: m, title, docId, collection, chunk, chunks, score }) => ({
          content: text,
          metadata: {
            ...m,
            // The whole document, for a client that reads resources (the rag plugin's document template).
            document_uri: documentUri(collection, docId),
            source: typeof m.source === "string" ? m.source : docId,
            asignatura: typeof m.asignatura === "string" ? m.asignatura : null,
            ...(title ? { title } : {}),
            doc_id: docId,
            chunk,
            chunks,
          },
          score: Math.round(score * 10_000) / 10_000,
        })),
      };
    },
    /** One document with its original text, or undefined. */
    document: (collection: string, id: string) => index.document(id, { collection }).catch(rethrow),
    /** Every document of a collection, without texts. */
    documents: (collection: string) => listAllDocuments(index, collection).catch(rethrow),
    /** The index's collections, with sizes. */
    collections: () => index.collections().catch(rethrow),
    stats: () => index.stats(),
    /** Hears of every write to the index, this process's or another's (`quiver rag index`). */
    watch: (listener: Parameters<typeof index.watch>[0]) => index.watch(listener),
    close: () => index.close(),
  };
};

/**
 * What the rag plugin's tools, command and health check share: `embedded()`, the embedded index of this
 * registration, opened at the first use and closed with the catalog. A missing index file rejects
 * (`unavailable`) and is tried again at the next call.
 */
export type RagResources = { readonly embedded: () => Promise<EmbeddedBackend> };

/**
 * Opens the embedded index lazily: a registration on the HTTP backend never touches it, and a
 * missing file is reported at the call (never created empty).
 */
export const setupRag: PluginSetup<RagConfig, RagResources> = ({ config, onClose }) => {
  let opened: Promise<EmbeddedBackend> | undefined;
  onClose(() => opened?.then((index) => index.close()).catch(() => undefined));
  return {
    embedded: () =>
      (opened ??= openEmbeddedBackend(indexLocationOf(config)).catch((error: unknown) => {
        opened = undefined;
        throw error;
      })),
  };
};
