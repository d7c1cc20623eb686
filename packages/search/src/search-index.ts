import { DatabaseSync, type StatementSync } from "node:sqlite";
import { SearchError } from "./errors.js";
import { analyze, matchingWords } from "./internal/analyzer.js";
import { chunkOptionsProblem, chunkText } from "./internal/chunker.js";
import { dateKey } from "./internal/dates.js";
import { authorName, tagKey } from "./internal/normalize.js";
import {
  CANDIDATE_DEPTH,
  countTerms,
  expansionTerms,
  FEEDBACK_DOCS,
  FEEDBACK_WEIGHT,
  idf,
  K1,
  RERANK_DEPTH,
  saturation,
  type TermCounts,
  TITLE_WEIGHT,
} from "./internal/ranking.js";
import { migrate, numericMeta, setMeta } from "./internal/schema.js";
import { fieldValue, type ScopeSql, scopeSql } from "./internal/scope.js";
import { collectionProblem, documentProblem } from "./internal/validate.js";
import type {
  AddOptions,
  AddResult,
  ChunkOptions,
  CollectionInfo,
  CountOptions,
  IndexStats,
  MetadataValue,
  OpenSearchIndexOptions,
  RemoveOptions,
  SearchDocument,
  SearchHit,
  SearchIndex,
  SearchOptions,
  SearchResponse,
} from "./types.js";

/**
 * Chunking used when neither the options nor the index say otherwise: 300 words (about 400 tokens, a usual
 * retrieval-augmented-generation passage) sharing 50 words.
 */
export const DEFAULT_CHUNKING: ChunkOptions = Object.freeze({ size: 300, overlap: 50 });

/** The collection of documents added without one. */
export const DEFAULT_COLLECTION = "default";

/** Documents per transaction in `add`; the event loop gets a turn between batches. */
const BATCH_SIZE = 200;
/** Distinct query terms used; a pasted page should not become a thousand-term OR. */
const MAX_QUERY_TERMS = 100;
const MAX_TOP_K = 1000;

interface Candidate {
  readonly chunk: number;
  readonly doc: number;
  score: number;
}

interface DocumentRow {
  readonly chunk: number;
  readonly ord: number;
  readonly text: string;
  readonly id: string;
  readonly collection: string;
  readonly title: string | null;
  readonly date: string | null;
  readonly doi: string | null;
  readonly authors: string | null;
  readonly tags: string | null;
  readonly metadata: string;
  readonly chunks: number;
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
export async function openSearchIndex(options: OpenSearchIndexOptions): Promise<SearchIndex> {
  if (typeof options?.path !== "string" || options.path.length === 0) {
    throw new SearchError("invalid_option", 'openSearchIndex needs a path (a file, or ":memory:")');
  }
  return SqliteSearchIndex.open(options);
}

/** Search terms of a query: analysed, de-duplicated (a query is a set of terms), at most MAX_QUERY_TERMS. */
function queryTerms(query: string): string[] {
  return [...new Set(analyze(query))].slice(0, MAX_QUERY_TERMS);
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

  private constructor(
    private readonly db: DatabaseSync,
    private readonly path: string,
    private readonly chunking: ChunkOptions,
  ) {}

  static open(options: OpenSearchIndexOptions): SqliteSearchIndex {
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
      return new SqliteSearchIndex(db, options.path, chunking);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async add(documents: Iterable<SearchDocument>, options: AddOptions = {}): Promise<AddResult> {
    this.assertOpen();
    const collection = options.collection ?? DEFAULT_COLLECTION;
    const problem = collectionProblem(collection);
    if (problem) throw new SearchError("invalid_option", problem);
    const docs = Array.from(documents);
    docs.forEach((doc, i) => {
      const why = documentProblem(doc);
      if (why) {
        const id = typeof doc?.id === "string" ? ` (id ${JSON.stringify(doc.id)})` : "";
        throw new SearchError("invalid_document", `document ${i}${id} ${why}`);
      }
    });
    return this.exclusive(async () => {
      let added = 0;
      let replaced = 0;
      let chunks = 0;
      for (let start = 0; start < docs.length; start += BATCH_SIZE) {
        this.transaction(() => {
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
    if (typeof query !== "string") throw new SearchError("invalid_option", "query must be a string");
    const topK = options.topK ?? 10;
    if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
      throw new SearchError("invalid_option", `topK must be an integer from 1 to ${MAX_TOP_K}, got ${topK}`);
    }
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

    const picked: Candidate[] = [];
    const seen = new Set<number>();
    for (const candidate of candidates) {
      if (group) {
        if (seen.has(candidate.doc)) continue;
        seen.add(candidate.doc);
      }
      picked.push(candidate);
      if (picked.length === topK) break;
    }
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
    const collection = options.collection ?? DEFAULT_COLLECTION;
    const problem = collectionProblem(collection);
    if (problem) throw new SearchError("invalid_option", problem);
    const list = typeof ids === "string" ? [ids] : [...ids];
    return this.exclusive(async () =>
      this.transaction(() => {
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
      this.transaction(() => {
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
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

  private transaction<T>(work: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.db.exec("COMMIT");
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
    const docRowid = Number(
      this.statement(
        `INSERT INTO documents (collection, id, title, date, date_key, doi, authors, tags, metadata, chunks)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    const version = Number(
      (this.statement("PRAGMA data_version").get() as { data_version: number }).data_version,
    );
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
    const averageLength = this.corpus?.averageLength ?? 1;
    let depth = Math.min(RERANK_DEPTH, candidates.length);
    if (group) {
      const docs = new Set<number>();
      for (let i = 0; i < candidates.length && docs.size < topK; i++) {
        docs.add(candidates[i]!.doc);
        depth = Math.max(depth, i + 1);
      }
    } else depth = Math.max(depth, Math.min(topK, candidates.length));
    const scored = candidates.slice(0, depth);
    const rows = this.statement(
      "SELECT rowid AS chunk, title, body FROM chunk_terms WHERE rowid IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(scored.map((c) => c.chunk))) as unknown as {
      chunk: number;
      title: string;
      body: string;
    }[];
    const termsOf = new Map(rows.map((row) => [row.chunk, row]));

    // Term weights: IDF for each query term, plus the feedback share for expansion terms.
    const weight = new Map(terms.map((term) => [term, this.idf(term)]));
    if (feedback) {
      const feedbackDocs: { terms: TermCounts; score: number }[] = [];
      const seen = new Set<number>();
      for (const candidate of scored) {
        if (seen.has(candidate.doc)) continue;
        seen.add(candidate.doc);
        const row = termsOf.get(candidate.chunk);
        if (row) feedbackDocs.push({ terms: countTerms(row.title, row.body), score: candidate.score });
        if (feedbackDocs.length === FEEDBACK_DOCS) break;
      }
      for (const [term, w] of expansionTerms(feedbackDocs, (t) => this.idf(t))) {
        weight.set(term, (weight.get(term) ?? 0) + FEEDBACK_WEIGHT * w * this.idf(term));
      }
    }

    const counts = new Map<string, [number, number]>();
    const tally = (text: string, field: 0 | 1): number => {
      if (!text) return 0;
      const words = text.split(" ");
      for (const term of words) {
        if (!weight.has(term)) continue;
        const entry = counts.get(term);
        if (entry) entry[field]++;
        else counts.set(term, field === 0 ? [1, 0] : [0, 1]);
      }
      return words.length;
    };
    let lowest = Number.POSITIVE_INFINITY;
    for (const candidate of scored) {
      const row = termsOf.get(candidate.chunk);
      counts.clear();
      const length = row ? tally(row.title, 0) + tally(row.body, 1) : 0;
      let score = 0;
      for (const [term, [titleTf, bodyTf]] of counts) {
        score += weight.get(term)! * saturation(titleTf, bodyTf, length, averageLength);
      }
      candidate.score = score;
      lowest = Math.min(lowest, score);
    }
    scored.sort((a, b) => b.score - a.score || a.chunk - b.chunk);
    candidates.splice(0, scored.length, ...scored);
    // Unscored candidates stay below, with scores that do not claim otherwise.
    for (let i = scored.length; i < candidates.length; i++)
      candidates[i]!.score = Math.min(candidates[i]!.score, lowest);
    let bound = 0;
    for (const w of weight.values()) bound += w * (K1 + 1);
    return bound;
  }

  private hits(picked: readonly Candidate[], bound: number, terms: ReadonlySet<string>): SearchHit[] {
    if (picked.length === 0) return [];
    const rows = this.statement(
      `SELECT c.rowid AS chunk, c.ord, c.text, d.id, d.collection, d.title, d.date, d.doi, d.authors, d.tags,
              d.metadata, d.chunks
       FROM chunks c JOIN documents d ON d.rowid = c.doc
       WHERE c.rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(picked.map((p) => p.chunk))) as unknown as DocumentRow[];
    const byChunk = new Map(rows.map((row) => [row.chunk, row]));
    return picked.flatMap((candidate) => {
      const row = byChunk.get(candidate.chunk);
      if (!row) return [];
      const hit: SearchHit = {
        id: `${row.id}#${row.ord}`,
        docId: row.id,
        collection: row.collection,
        chunk: row.ord,
        chunks: row.chunks,
        ...(row.title === null ? {} : { title: row.title }),
        text: row.text,
        score: bound > 0 ? Math.min(1, Math.max(0, candidate.score / bound)) : 0,
        metadata: JSON.parse(row.metadata) as Record<string, MetadataValue>,
        ...(row.authors === null ? {} : { authors: JSON.parse(row.authors) as string[] }),
        ...(row.date === null ? {} : { date: row.date }),
        ...(row.tags === null ? {} : { tags: JSON.parse(row.tags) as string[] }),
        ...(row.doi === null ? {} : { doi: row.doi }),
        highlights: matchingWords(row.text, terms),
      };
      return [hit];
    });
  }
}
