/**
 * A metadata value: a string, number, boolean or list of strings.
 *
 * @example
 * const metadata: Record<string, MetadataValue> = { course: "bio101", week: 3, draft: false, topics: ["cells"] };
 */
export type MetadataValue = string | number | boolean | readonly string[];

/**
 * A document to index. Only `id` and `text` are required; long texts are split into overlapping chunks.
 *
 * @example
 * const doc: SearchDocument = { id: "lecture-3", title: "Cell membranes", text: "...", tags: ["biology"] };
 */
export interface SearchDocument {
  /** Unique within its collection; adding a document with an existing id replaces it. */
  readonly id: string;
  /** Indexed as its own field, weighted above the body. */
  readonly title?: string;
  /** The body text. */
  readonly text: string;
  /** Free-form fields, filterable with `filters.metadata` (equality; a list matches any of its values). */
  readonly metadata?: Readonly<Record<string, MetadataValue>>;
  /** Filterable with `filters.authors`; "Last, First" is normalised to "First Last". */
  readonly authors?: readonly string[];
  /** ISO 8601 date (`2020`, `2020-05`, `2020-05-17` or a full timestamp), filterable by range. */
  readonly date?: string;
  /** Filterable with `filters.tags` (case-insensitive). */
  readonly tags?: readonly string[];
  /** Digital Object Identifier, returned with results. */
  readonly doi?: string;
}

/**
 * How documents are split into chunks, in words. A chunk ends at a sentence boundary when one falls in its
 * second half; consecutive chunks share up to `overlap` words, starting at a sentence boundary when possible.
 */
export interface ChunkOptions {
  /** Maximum words per chunk. Default 300. */
  readonly size: number;
  /** Words shared by consecutive chunks, less than `size`. Default 50. */
  readonly overlap: number;
}

/**
 * Options of {@link openSearchIndex}.
 *
 * @example
 * const index = await openSearchIndex({ path: "./course.db", chunk: { size: 300, overlap: 50 } });
 */
export interface OpenSearchIndexOptions {
  /** SQLite file path, created when missing, or `":memory:"` for a throw-away index. */
  readonly path: string;
  /** Chunking of texts added from now on; stored in the index, so later opens reuse it when omitted. */
  readonly chunk?: Partial<ChunkOptions>;
  /** How often {@link SearchIndex.watch} polls the file for other connections' writes. Default 1000 ms. */
  readonly watchIntervalMs?: number;
}

/**
 * Options of {@link openSearchIndex} for the PostgreSQL store. One database (one schema) holds any number of
 * indexes, each named, each owned by one principal; row-level security keeps a principal's rows out of every
 * other principal's transactions.
 *
 * @example
 * const index = await openSearchIndex({ databaseUrl: process.env.DATABASE_URL!, name: "rag", principal: "" });
 */
export interface OpenPostgresSearchIndexOptions {
  /** `postgres://user:password@host:5432/database`; the password never appears in messages or stats. */
  readonly databaseUrl: string;
  /** The schema holding the tables, created when missing. Default `"quiver_search"`. */
  readonly schema?: string;
  /** The index within the schema (what a SQLite file is to the SQLite store). Default `"default"`. */
  readonly name?: string;
  /**
   * Who owns this index's rows: every transaction runs with `quiver.principal` set to it, and the tables'
   * policies show only rows of that principal. Default `""` (a shared, public index).
   */
  readonly principal?: string;
  /**
   * Who the transactions run as, to read `principal`'s index as someone else: rows are visible only if the
   * principal granted this reader the index ({@link shareSearchIndex}); such a handle cannot write. Default:
   * the principal.
   */
  readonly reader?: string;
  /** Chunking of texts added from now on; stored with the index, so later opens reuse it when omitted. */
  readonly chunk?: Partial<ChunkOptions>;
  /** Connections in the pool shared by every index opened on the same URL. Default 10. */
  readonly poolSize?: number;
}

/** Progress of {@link SearchIndex.add}: `done` of `total` documents are indexed. */
export type ProgressCallback = (done: number, total: number) => void;

/** Options of {@link SearchIndex.add}. */
export interface AddOptions {
  /** The collection (tenant) the documents belong to. Default `"default"`. */
  readonly collection?: string;
  /** Called after each committed batch of documents. */
  readonly onProgress?: ProgressCallback;
}

/** What {@link SearchIndex.add} did. */
export interface AddResult {
  /** Documents that were new to the collection. */
  readonly added: number;
  /** Documents whose id already existed in the collection, now replaced. */
  readonly replaced: number;
  /** Chunks written. */
  readonly chunks: number;
}

/** Filters on document fields; all given filters must hold. */
export interface SearchFilters {
  /** Field equality; a list of values means any of them. A list-valued field matches when it contains the value. */
  readonly metadata?: Readonly<
    Record<string, string | number | boolean | readonly (string | number | boolean)[]>
  >;
  /** Earliest date, inclusive (`2019`, `2019-06` or `2019-06-01`). Documents without a date are excluded. */
  readonly dateFrom?: string;
  /** Latest date, inclusive (`2020` means up to the end of 2020). Documents without a date are excluded. */
  readonly dateTo?: string;
  /**
   * Any of these authors: a full name ("Jane Doe"), or a single word matching a last name ("Doe"). Case and
   * accents are ignored. An empty list matches nothing.
   */
  readonly authors?: readonly string[];
  /** Any of these tags, case-insensitive. An empty list matches nothing. */
  readonly tags?: readonly string[];
}

/** Where a search or count may look. */
export interface ScopeOptions {
  /**
   * Only these collections. Omit to search every collection; an empty list matches nothing. A host passes the
   * collections its principal may read: no document outside them is ever returned.
   */
  readonly collections?: readonly string[];
  /** Filters on document fields. */
  readonly filters?: SearchFilters;
}

/** Options of {@link SearchIndex.search}. */
export interface SearchOptions extends ScopeOptions {
  /** Number of results. Default 10, at most 1000. */
  readonly topK?: number;
  /** Return only the best chunk of each document (default), or every matching chunk. */
  readonly groupByDocument?: boolean;
  /**
   * Pseudo-relevance feedback: re-rank with terms from the best first-pass results (see README). Default true;
   * turn it off for exact keyword lookups.
   */
  readonly feedback?: boolean;
}

/** A character range `[start, end)` in {@link SearchHit.text}. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** One search result: the best-matching chunk of a document. */
export interface SearchHit {
  /** The chunk id, `<docId>#<chunk>`. */
  readonly id: string;
  /** The document id. */
  readonly docId: string;
  /** The document's collection. */
  readonly collection: string;
  /** Position of this chunk in its document, from 0. */
  readonly chunk: number;
  /** Number of chunks of the document. */
  readonly chunks: number;
  readonly title?: string;
  /** The chunk's text. */
  readonly text: string;
  /**
   * Relevance in [0, 1]: the BM25 score divided by the highest score this query could reach (every query term
   * at saturation in both fields). Comparable within a query; across queries only roughly.
   */
  readonly score: number;
  readonly metadata: Readonly<Record<string, MetadataValue>>;
  readonly authors?: readonly string[];
  readonly date?: string;
  readonly tags?: readonly string[];
  readonly doi?: string;
  /** Words of `text` that matched the query (not the feedback terms). */
  readonly highlights: readonly TextRange[];
}

/** The answer of {@link SearchIndex.search}. */
export interface SearchResponse {
  readonly results: readonly SearchHit[];
  /** Documents (or chunks, when not grouped) matching at least one query term within the scope. */
  readonly total: number;
}

/** Options of {@link SearchIndex.count}. */
export interface CountOptions extends ScopeOptions {
  /** Count only documents matching this query (at least one of its terms). */
  readonly query?: string;
}

/** Options of {@link SearchIndex.remove}. */
export interface RemoveOptions {
  /** The collection to remove from. Default `"default"`. */
  readonly collection?: string;
}

/** One collection and its size. */
export interface CollectionInfo {
  readonly name: string;
  readonly documents: number;
  readonly chunks: number;
}

/** Size and settings of an index. */
export interface IndexStats {
  /** The SQLite file, or for PostgreSQL `postgres://host:port/database#schema.name` (no user or password). */
  readonly path: string;
  readonly documents: number;
  readonly chunks: number;
  readonly collections: number;
  /** Distinct indexed terms (stems). */
  readonly terms: number;
  readonly chunking: ChunkOptions;
}

/** Options of {@link SearchIndex.document}. */
export interface DocumentOptions {
  /** The collection holding the document. Default `"default"`. */
  readonly collection?: string;
}

/**
 * A document as {@link SearchIndex.document} reads it back: its fields as added, its chunk count and its
 * original text. A document indexed before the index kept original texts (an index migrated from schema 1)
 * has no `text`, and `textMissing` says so: add it again to read it whole.
 *
 * @example
 * const doc = await index.document("lecture-3", { collection: "bio101" });
 * if (doc?.text !== undefined) console.log(doc.size, doc.text.slice(0, 80));
 */
export interface StoredDocument {
  readonly id: string;
  readonly collection: string;
  readonly title?: string;
  readonly metadata: Readonly<Record<string, MetadataValue>>;
  readonly authors?: readonly string[];
  readonly date?: string;
  readonly tags?: readonly string[];
  readonly doi?: string;
  /** Number of chunks the text was split into. */
  readonly chunks: number;
  /** The text exactly as given to `add` (stored as UTF-8: a lone surrogate, which is not Unicode, reads as U+FFFD). */
  readonly text?: string;
  /** Length of `text` in characters (UTF-16 code units, JavaScript's `length`). */
  readonly size?: number;
  /** Length of `text` in UTF-8 bytes (what an MCP resource's `size` counts). */
  readonly bytes?: number;
  /** Present only when `text` is absent: why, and what to do. */
  readonly textMissing?: string;
}

/** Options of {@link SearchIndex.documents}. */
export interface ListDocumentsOptions {
  /** The collection to list. Default `"default"`. */
  readonly collection?: string;
  /** Documents per page, 1 to 1000. Default 100. */
  readonly limit?: number;
  /** The `nextCursor` of the previous page; omit for the first page. */
  readonly cursor?: string;
}

/** One document of a {@link DocumentPage}: enough to list it, without its text. */
export interface DocumentSummary {
  readonly id: string;
  readonly title?: string;
  readonly date?: string;
  /** Characters of the original text; absent when it was not kept (see {@link StoredDocument.textMissing}). */
  readonly size?: number;
  /** UTF-8 bytes of the original text; absent when it was not kept. */
  readonly bytes?: number;
  /** Present only when the original text was not kept. */
  readonly textMissing?: string;
}

/** A page of {@link SearchIndex.documents}, ordered by id (code point order, the same in both stores). */
export interface DocumentPage {
  readonly documents: readonly DocumentSummary[];
  /** Pass it as `cursor` for the next page; absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * A document index: SQLite FTS5 or PostgreSQL storage, BM25 ranking with pseudo-relevance feedback, filters
 * and collections. Both stores implement this one interface and rank with the same code; the SQLite one writes
 * in batches and yields between them.
 */
export interface SearchIndex {
  /** Adds or replaces documents. Each batch is committed atomically; invalid documents reject before any write. */
  add(documents: Iterable<SearchDocument>, options?: AddOptions): Promise<AddResult>;
  /** Ranks documents for a free-text query. Query text is never interpreted as FTS syntax. */
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /** Counts documents in a scope, optionally only those matching a query. */
  count(options?: CountOptions): Promise<number>;
  /** Removes documents by id from one collection; resolves to the number removed. */
  remove(ids: string | readonly string[], options?: RemoveOptions): Promise<number>;
  /** Removes a whole collection; resolves to the number of documents removed. */
  removeCollection(name: string): Promise<number>;
  /** Reads one document with its original text; undefined when the collection holds no such id. */
  document(id: string, options?: DocumentOptions): Promise<StoredDocument | undefined>;
  /** Lists a collection's documents a page at a time, by id, without their texts. */
  documents(options?: ListDocumentsOptions): Promise<DocumentPage>;
  /** Lists collections with their sizes, by name. */
  collections(): Promise<readonly CollectionInfo[]>;
  /** Sizes and settings. */
  stats(): Promise<IndexStats>;
  /**
   * Calls `listener` after the index's content changes, whoever changed it: this handle, another handle or
   * another process (the CLI adding documents to the file or database a host serves). SQLite polls the file's
   * `PRAGMA data_version` (see `watchIntervalMs`); PostgreSQL uses `LISTEN`/`NOTIFY`, its writers notifying in
   * the transaction that writes. A change may be announced once for several writes, or for a write that
   * changed nothing. Returns the function that stops this listener; {@link close} stops them all.
   *
   * @example
   * const stop = index.watch(({ collection }) => console.log("changed", collection ?? "(some collection)"));
   * stop();
   */
  watch(listener: IndexChangeListener): () => void;
  /** Closes the database and stops every watcher; later calls reject. */
  close(): Promise<void>;
}

/** What {@link SearchIndex.watch} says about a change: never a document's text. */
export interface IndexChange {
  /** The collection written, when known (a SQLite write by another connection says only that the file changed). */
  readonly collection?: string;
}

/** A listener of {@link SearchIndex.watch}. */
export type IndexChangeListener = (change: IndexChange) => void;
