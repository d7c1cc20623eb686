import pkg from "../package.json" with { type: "json" };

/** The analyzer documents and queries go through (folding, stop words, Porter stem), for rankers of their own. */
export { analyze } from "./analyzer.js";
export { documentMimeType, listAllDocuments } from "./document-reads.js";
export type { SearchErrorCode } from "./errors.js";
export { SearchError } from "./errors.js";
export type { LoadDocumentsOptions, LoadError, LoadedDocuments } from "./load-documents.js";
export { loadDocuments } from "./load-documents.js";
export type { Judgments } from "./metrics.js";
export { ndcgAt, recallAt } from "./metrics.js";
/** The BM25 arithmetic the index ranks with, for rankers over small in-memory sets (a host's tool finder). */
export { bm25Idf, bm25Saturation } from "./ranking.js";
export {
  DEFAULT_CHUNKING,
  DEFAULT_COLLECTION,
  openSearchIndex,
  type ShareSearchIndexOptions,
  shareSearchIndex,
  unshareSearchIndex,
} from "./search-index.js";
export type {
  AddOptions,
  AddResult,
  ChunkOptions,
  CollectionInfo,
  CountOptions,
  DocumentOptions,
  DocumentPage,
  DocumentSummary,
  IndexChange,
  IndexChangeListener,
  IndexStats,
  ListDocumentsOptions,
  MetadataValue,
  OpenPostgresSearchIndexOptions,
  OpenSearchIndexOptions,
  ProgressCallback,
  RemoveOptions,
  ScopeOptions,
  SearchDocument,
  SearchFilters,
  SearchHit,
  SearchIndex,
  SearchOptions,
  SearchResponse,
  StoredDocument,
  TextRange,
} from "./types.js";

/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
