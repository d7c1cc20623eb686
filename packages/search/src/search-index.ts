import { DatabaseSync, type StatementSync } from "node:sqlite";
import { SearchError } from "./errors.js";
import { analyze } from "./internal/analyzer.js";
import { ChangeFeed, DEFAULT_WATCH_INTERVAL_MS, pollDataVersion } from "./internal/change-feed.js";
import { chunkOptionsProblem, chunkText } from "./internal/chunker.js";
import { dateKey } from "./internal/dates.js";
import { authorName, tagKey } from "./internal/normalize.js";
import { withOptionalPeer } from "./internal/optional-peer.js";
import { CANDIDATE_DEPTH, idf, TITLE_WEIGHT } from "./internal/ranking.js";
import {
  BATCH_SIZE,
  type Candidate,
  type ChunkTerms,
  checkAdd,
  checkCollection,
  checkSearch,
  DEFAULT_COLLECTION,
  type HitRow,
  pick,
  queryTerms,
  rerankDepth,
  rescore,
  toHits,
} from "./internal/rescore.js";
import { migrate, numericMeta, setMeta } from "./internal/schema.js";
import { fieldValue, type ScopeSql, scopeSql } from "./internal/scope.js";
import { listSqliteDocuments, readSqliteDocument } from "./internal/sqlite-documents.js";
import { checkDocument, checkPage, originalOf } from "./internal/stored-documents.js";
import { collectionProblem } from "./internal/validate.js";
import type {
  AddOptions,
  AddResult,
  ChunkOptions,
  CollectionInfo,
  CountOptions,
  DocumentOptions,
  DocumentPage,
  IndexChangeListener,
  IndexStats,
  ListDocumentsOptions,
  OpenPostgresSearchIndexOptions,
  OpenSearchIndexOptions,
  RemoveOptions,
  SearchDocument,
  SearchHit,
  SearchIndex,
  SearchOptions,
  SearchResponse,
  StoredDocument,
} from "./types.js";

/** The PostgreSQL store, loaded (with its `pg` driver) only by those who ask for it. */
const postgresStore = () =>
  withOptionalPeer("pg", "A PostgreSQL index", () => import("./postgres/postgres-search-index.js"));

/**
 * Chunking used when neither the options nor the index say otherwise: 300 words (about 400 tokens, a usual
 * retrieval-augmented-generation passage) sharing 50 words.
 */
export const DEFAULT_CHUNKING: ChunkOptions = Object.freeze({ size: 300, overlap: 50 });

export { DEFAULT_COLLECTION };

/** Options of {@link shareSearchIndex}: the PostgreSQL index, its owner and the grantee. */
export interface ShareSearchIndexOptions {
  readonly databaseUrl: string;
  /** Default `quiver_search`. */
  readonly schema?: string;
  /** Default `default`. */
  readonly name?: string;
  /** The index's owner (its `principal`). */
  readonly principal: string;
  /** Who may read it, by opening it with `reader`. */
  readonly grantee: string;
}

/**
 * PostgreSQL only: lets `grantee` read `principal`'s index (row-level security checks the grant on every row).
 * Resolves to true when the grant is new.
 *
 * @example
 * await shareSearchIndex({ databaseUrl, name: "papers", principal: "alice", grantee: "bob" });
 * const asBob = await openSearchIndex({ databaseUrl, name: "papers", principal: "alice", reader: "bob" });
 */
export async function shareSearchIndex(options: ShareSearchIndexOptions): Promise<boolean> {
  const { shareSearchIndex: share } = await postgresStore();
  return share(options);
}

/** PostgreSQL only: withdraws a grant of {@link shareSearchIndex}; resolves to true when there was one. */
export async function unshareSearchIndex(options: ShareSearchIndexOptions): Promise<boolean> {
  const { unshareSearchIndex: unshare } = await postgresStore();
  return unshare(options);
}

/**
 * Opens (or creates) a search index in a SQLite file, or in memory with `path: ":memory:"`.
 *
 * Use one index per file and process for writing; several processes may read the same file (WAL mode).
 *
 * @example
 * const index = await openSearchIndex({ path: "./notes.db" });
 * await index.add([{ id: "a", title: "Mitochondria", text: "The powerhouse of the cell..." }]);
 * const { results } = await index.search("what produces ATP in cells?", { topK: 5 });
 * await index.close();
 */
export async function openSearchIndex(
  options: OpenSearchIndexOptions | OpenPostgresSearchIndexOptions,
): Promise<SearchIndex> {
  if (options !== null && typeof options === "object" && "databaseUrl" in options) {
    const { openPostgresSearchIndex } = await postgresStore();
    return openPostgresSearchIndex(options);
  }
  if (typeof options?.path !== "string" || options.path.length === 0) {
    throw new SearchError("invalid_option", 'openSearchIndex needs a path (a file, or ":memory:")');
  }
  return SqliteSearchIndex.open(options);
}

/**
 * An FTS5 query matching any of the terms. Each term is a quoted string (with quotes doubled, although the
 * analyzer never produces one), so user text cannot inject operators, column filters or prefixes.
 */
function matchExpression(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

class SqliteSearchIndex implements SearchIndex {
  private readonly statements = new Map<string, StatementSync>();
  private writes: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Corpus statistics and document frequencies, valid while `cacheVersion` matches PRAGMA data_version. */
  private cacheVersion: number | undefined;
  private corpus: { chunks: number; averageLength: number } | undefined;
  private readonly frequencies = new Map<string, number>();
  private readonly changes: ChangeFeed;

  private constructor(
    private readonly db: DatabaseSync,
    private readonly path: string,
    private readonly chunking: ChunkOptions,
    watchIntervalMs: number,
  ) {
    this.changes = new ChangeFeed(pollDataVersion(() => this.dataVersion(), watchIntervalMs));
  }

  static open(options: OpenSearchIndexOptions): SqliteSearchIndex {
    const interval = options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
    if (!Number.isInteger(interval) || interval < 1)
      throw new SearchError("invalid_option", "watchIntervalMs must be a positive integer (milliseconds)");
    const db = new DatabaseSync(options.path);
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      if (options.path !== ":memory:") db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
      migrate(db, options.path);
      const stored: ChunkOptions = {
        size: numericMeta(db, "chunk_size") ?? DEFAULT_CHUNKING.size,
        overlap: numericMeta(db, "chunk_overlap") ?? DEFAULT_CHUNKING.overlap,
      };
      const chunking: ChunkOptions = { ...stored, ...options.chunk };
      const problem = chunkOptionsProblem(chunking);
      if (problem) throw new SearchError("invalid_option", problem);
      if (
        chunking.size !== stored.size ||
        chunking.overlap !== stored.overlap ||
        numericMeta(db, "chunk_size") === undefined
      ) {
        setMeta(db, "chunk_size", chunking.size);
        setMeta(db, "chunk_overlap", chunking.overlap);
      }
      return new SqliteSearchIndex(db, options.path, chunking, interval);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async add(documents: Iterable<SearchDocument>, options: AddOptions = {}): Promise<AddResult> {
    this.assertOpen();
    const { collection, docs } = checkAdd(documents, options);
    return this.exclusive(async () => {
      let added = 0;
      let replaced = 0;
      let chunks = 0;
      for (let start = 0; start < docs.length; start += BATCH_SIZE) {
        this.transaction(collection, () => {
          for (const doc of docs.slice(start, start + BATCH_SIZE)) {
            const written = this.writeDocument(collection, doc);
            if (written.replaced) replaced++;
            else added++;
            chunks += written.chunks;
          }
        });
        const done = Math.min(start + BATCH_SIZE, docs.length);
        options.onProgress?.(done, docs.length);
        if (done < docs.length) await new Promise((resolve) => setImmediate(resolve));
      }
      return { added, replaced, chunks };
    });
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    this.assertOpen();
    const topK = checkSearch(query, options);
    const group = options.groupByDocument ?? true;
    const scope = scopeSql(options);
    const terms = queryTerms(query);
    if (terms.length === 0 || options.collections?.length === 0) return { results: [], total: 0 };

    const match = matchExpression(terms);
    const candidates = this.candidates(match, scope);
    if (candidates.length === 0) return { results: [], total: 0 };
    const total =
      candidates.length < CANDIDATE_DEPTH
        ? group
          ? new Set(candidates.map((c) => c.doc)).size
          : candidates.length
        : this.countMatches(match, scope, group);

    this.refreshCache();
    const bound = this.rerank(candidates, terms, topK, group, options.feedback ?? true);
    const picked = pick(candidates, topK, group);
    return { results: this.hits(picked, bound, new Set(terms)), total };
  }

  async count(options: CountOptions = {}): Promise<number> {
    this.assertOpen();
    const scope = scopeSql(options);
    if (options.collections?.length === 0) return 0;
    if (options.query === undefined) {
      const row = this.statement(`SELECT count(*) AS n FROM documents d WHERE ${scope.where}`).get(
        ...scope.params,
      );
      return Number((row as { n: number }).n);
    }
    if (typeof options.query !== "string") throw new SearchError("invalid_option", "query must be a string");
    const terms = queryTerms(options.query);
    return terms.length === 0 ? 0 : this.countMatches(matchExpression(terms), scope, true);
  }

  async remove(ids: string | readonly string[], options: RemoveOptions = {}): Promise<number> {
    this.assertOpen();
    const collection = checkCollection(options.collection);
    const list = typeof ids === "string" ? [ids] : [...ids];
    return this.exclusive(async () =>
      this.transaction(collection, () => {
        let removed = 0;
        const find = this.statement("SELECT rowid FROM documents WHERE collection = ? AND id = ?");
        for (const id of list) {
          const row = find.get(collection, id) as { rowid: number } | undefined;
          if (row) {
            this.deleteDocument(row.rowid);
            removed++;
          }
        }
        return removed;
      }),
    );
  }

  async removeCollection(name: string): Promise<number> {
    this.assertOpen();
    const problem = collectionProblem(name);
    if (problem) throw new SearchError("invalid_option", problem);
    return this.exclusive(async () =>
      this.transaction(name, () => {
        const docs = "SELECT rowid FROM documents WHERE collection = ?";
        this.statement(
          `DELETE FROM chunk_terms WHERE rowid IN (SELECT rowid FROM chunks WHERE doc IN (${docs}))`,
        ).run(name);
        for (const table of ["chunks", "document_authors", "document_tags", "document_fields"]) {
          this.statement(`DELETE FROM ${table} WHERE doc IN (${docs})`).run(name);
        }
        return Number(this.statement("DELETE FROM documents WHERE collection = ?").run(name).changes);
      }),
    );
  }

  async collections(): Promise<readonly CollectionInfo[]> {
    this.assertOpen();
    const rows = this.statement(
      "SELECT collection AS name, count(*) AS documents, sum(chunks) AS chunks FROM documents GROUP BY collection ORDER BY collection",
    ).all() as unknown as CollectionInfo[];
    return rows.map(({ name, documents, chunks }) => ({ name, documents, chunks }));
  }

  async document(id: string, options: DocumentOptions = {}): Promise<StoredDocument | undefined> {
    this.assertOpen();
    const document = checkDocument(id, options);
    return readSqliteDocument((sql) => this.statement(sql), document.collection, document.id);
  }

  async documents(options: ListDocumentsOptions = {}): Promise<DocumentPage> {
    this.assertOpen();
    return listSqliteDocuments((sql) => this.statement(sql), checkPage(options));
  }

  async stats(): Promise<IndexStats> {
    this.assertOpen();
    const one = (sql: string) => Number((this.statement(sql).get() as { n: number }).n);
    return {
      path: this.path,
      documents: one("SELECT count(*) AS n FROM documents"),
      chunks: one("SELECT count(*) AS n FROM chunks"),
      collections: one("SELECT count(DISTINCT collection) AS n FROM documents"),
      terms: one("SELECT count(*) AS n FROM chunk_vocabulary"),
      chunking: { ...this.chunking },
    };
  }

  watch(listener: IndexChangeListener): () => void {
    this.assertOpen();
    return this.changes.watch(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.changes.close();
    await this.writes.catch(() => undefined);
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new SearchError("closed", "the search index is closed");
  }

  /** Runs writes one after another, so that concurrent `add` calls never interleave their transactions. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work, work);
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Runs a write; after its commit, this handle's watchers hear of it (data_version sees other connections only). */
  private transaction<T>(collection: string, work: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.db.exec("COMMIT");
      this.changes.emit({ collection });
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    } finally {
      this.cacheVersion = undefined;
    }
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private writeDocument(collection: string, doc: SearchDocument): { replaced: boolean; chunks: number } {
    const existing = this.statement("SELECT rowid FROM documents WHERE collection = ? AND id = ?").get(
      collection,
      doc.id,
    ) as { rowid: number } | undefined;
    if (existing) this.deleteDocument(existing.rowid);

    const pieces = chunkText(doc.text, this.chunking);
    if (pieces.length === 0) pieces.push({ text: "", start: 0, end: 0, words: 0 });
    const authors = (doc.authors ?? []).map(authorName).filter((a) => a !== undefined);
    const tags = doc.tags ?? [];
    const nullable = (value: string | undefined) => value ?? null;
    const original = originalOf(doc.text);
    const docRowid = Number(
      this.statement(
        `INSERT INTO documents (collection, id, title, date, date_key, doi, authors, tags, metadata, chunks,
           original, original_size, original_bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        collection,
        doc.id,
        nullable(doc.title),
        nullable(doc.date),
        doc.date === undefined ? null : nullable(dateKey(doc.date)),
        nullable(doc.doi),
        authors.length > 0 ? JSON.stringify(authors.map((a) => a.display)) : null,
        tags.length > 0 ? JSON.stringify(tags) : null,
        JSON.stringify(doc.metadata ?? {}),
        pieces.length,
        original.text,
        original.size,
        original.bytes,
      ).lastInsertRowid,
    );

    const titleTerms = analyze(doc.title ?? "");
    const insertChunk = this.statement("INSERT INTO chunks (doc, ord, text, terms) VALUES (?, ?, ?, ?)");
    const insertTerms = this.statement("INSERT INTO chunk_terms (rowid, title, body) VALUES (?, ?, ?)");
    pieces.forEach((piece, ord) => {
      const bodyTerms = analyze(piece.text);
      const chunkRowid = insertChunk.run(
        docRowid,
        ord,
        piece.text,
        titleTerms.length + bodyTerms.length,
      ).lastInsertRowid;
      insertTerms.run(chunkRowid, titleTerms.join(" "), bodyTerms.join(" "));
    });

    const insertAuthor = this.statement("INSERT INTO document_authors (doc, name, last) VALUES (?, ?, ?)");
    for (const author of authors) insertAuthor.run(docRowid, author.name, author.last);
    const insertTag = this.statement("INSERT INTO document_tags (doc, tag) VALUES (?, ?)");
    for (const tag of new Set(tags.map(tagKey))) insertTag.run(docRowid, tag);
    const insertField = this.statement("INSERT INTO document_fields (doc, key, value) VALUES (?, ?, ?)");
    for (const [key, value] of Object.entries(doc.metadata ?? {})) {
      const values: readonly (string | number | boolean)[] = Array.isArray(value) ? value : [value as string];
      for (const item of new Set(values)) insertField.run(docRowid, key, fieldValue(item));
    }
    return { replaced: existing !== undefined, chunks: pieces.length };
  }

  private deleteDocument(docRowid: number): void {
    this.statement("DELETE FROM chunk_terms WHERE rowid IN (SELECT rowid FROM chunks WHERE doc = ?)").run(
      docRowid,
    );
    for (const table of ["chunks", "document_authors", "document_tags", "document_fields"]) {
      this.statement(`DELETE FROM ${table} WHERE doc = ?`).run(docRowid);
    }
    this.statement("DELETE FROM documents WHERE rowid = ?").run(docRowid);
  }

  /**
   * First pass: the best CANDIDATE_DEPTH chunks by FTS5's BM25 within the scope, best first. Without a scope,
   * FTS5 ranks alone and the chunks' documents are looked up for the survivors only.
   */
  private candidates(match: string, scope: ScopeSql): Candidate[] {
    const bm25 = `-bm25(chunk_terms, ${TITLE_WEIGHT}, 1.0)`;
    if (scope.params.length > 0) {
      return this.statement(
        `SELECT f.rowid AS chunk, c.doc AS doc, ${bm25} AS score
         FROM chunk_terms f JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.rowid = c.doc
         WHERE chunk_terms MATCH ? AND ${scope.where}
         ORDER BY score DESC, f.rowid LIMIT ${CANDIDATE_DEPTH}`,
      ).all(match, ...scope.params) as unknown as Candidate[];
    }
    const ranked = this.statement(
      `SELECT rowid AS chunk, ${bm25} AS score FROM chunk_terms WHERE chunk_terms MATCH ?
       ORDER BY score DESC, rowid LIMIT ${CANDIDATE_DEPTH}`,
    ).all(match) as unknown as { chunk: number; score: number }[];
    if (ranked.length === 0) return [];
    const docs = this.statement(
      "SELECT rowid AS chunk, doc FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(ranked.map((r) => r.chunk))) as unknown as { chunk: number; doc: number }[];
    const docOf = new Map(docs.map((r) => [r.chunk, r.doc]));
    return ranked.flatMap(({ chunk, score }) => {
      const doc = docOf.get(chunk);
      return doc === undefined ? [] : [{ chunk, doc, score }];
    });
  }

  private countMatches(match: string, scope: ScopeSql, group: boolean): number {
    const sql =
      scope.params.length > 0
        ? `SELECT count(${group ? "DISTINCT c.doc" : "*"}) AS n
           FROM chunk_terms f JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.rowid = c.doc
           WHERE chunk_terms MATCH ? AND ${scope.where}`
        : group
          ? "SELECT count(DISTINCT c.doc) AS n FROM chunk_terms f JOIN chunks c ON c.rowid = f.rowid WHERE chunk_terms MATCH ?"
          : "SELECT count(*) AS n FROM chunk_terms WHERE chunk_terms MATCH ?";
    const row = this.statement(sql).get(match, ...scope.params);
    return Number((row as { n: number }).n);
  }

  /** Drops cached statistics when this or another connection has written since they were read. */
  private refreshCache(): void {
    const version = this.dataVersion();
    if (version === this.cacheVersion) return;
    this.cacheVersion = version;
    this.frequencies.clear();
    const row = this.statement(
      "SELECT count(*) AS n, coalesce(sum(terms), 0) AS total FROM chunks",
    ).get() as {
      n: number;
      total: number;
    };
    this.corpus = { chunks: Number(row.n), averageLength: Number(row.total) / Math.max(1, Number(row.n)) };
  }

  /** PRAGMA data_version: changes when another connection commits to the file. */
  private dataVersion(): number {
    return Number((this.statement("PRAGMA data_version").get() as { data_version: number }).data_version);
  }

  /** IDF of a term over all chunks. */
  private idf(term: string): number {
    let containing = this.frequencies.get(term);
    if (containing === undefined) {
      const row = this.statement("SELECT doc FROM chunk_vocabulary WHERE term = ?").get(term) as
        | { doc: number }
        | undefined;
      containing = Number(row?.doc ?? 0);
      if (this.frequencies.size >= 500_000) this.frequencies.clear();
      this.frequencies.set(term, containing);
    }
    return idf(this.corpus?.chunks ?? 0, containing);
  }

  /**
   * Scores the best candidates in JavaScript: BM25 of the query terms plus, with feedback, the weighted BM25 of
   * expansion terms drawn from the best first-pass documents (see ranking.ts). Scores at least RERANK_DEPTH
   * chunks, and enough to fill `topK` documents; the rest keep their first-pass order below. Returns the
   * highest score the query could reach (every term saturated: BM25's term-frequency part tends to k1 + 1).
   */
  private rerank(
    candidates: Candidate[],
    terms: readonly string[],
    topK: number,
    group: boolean,
    feedback: boolean,
  ): number {
    const depth = rerankDepth(candidates, topK, group);
    const rows = this.statement(
      "SELECT rowid AS chunk, title, body FROM chunk_terms WHERE rowid IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(candidates.slice(0, depth).map((c) => c.chunk))) as unknown as (ChunkTerms & {
      chunk: number;
    })[];
    const termsOf = new Map(rows.map((row) => [row.chunk, row]));
    return rescore(
      candidates,
      depth,
      termsOf,
      terms,
      (term) => this.idf(term),
      this.corpus?.averageLength ?? 1,
      feedback,
    );
  }

  private hits(picked: readonly Candidate[], bound: number, terms: ReadonlySet<string>): SearchHit[] {
    if (picked.length === 0) return [];
    const rows = this.statement(
      `SELECT c.rowid AS chunk, c.ord, c.text, d.id, d.collection, d.title, d.date, d.doi, d.authors, d.tags,
              d.metadata, d.chunks
       FROM chunks c JOIN documents d ON d.rowid = c.doc
       WHERE c.rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(picked.map((p) => p.chunk))) as unknown as HitRow[];
    return toHits(picked, rows, bound, terms);
  }
}
