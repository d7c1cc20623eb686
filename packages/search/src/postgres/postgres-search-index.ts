import type pg from "pg";
import { SearchError } from "../errors.js";
import { ANALYZER_VERSION, analyze } from "../internal/analyzer.js";
import { ChangeFeed } from "../internal/change-feed.js";
import { chunkOptionsProblem, chunkText } from "../internal/chunker.js";
import { dateKey } from "../internal/dates.js";
import { authorName, tagKey } from "../internal/normalize.js";
import { B, CANDIDATE_DEPTH, idf, K1, TITLE_WEIGHT } from "../internal/ranking.js";
import {
  BATCH_SIZE,
  type Candidate,
  type ChunkTerms,
  checkAdd,
  checkCollection,
  checkSearch,
  feedbackDocuments,
  type HitRow,
  pick,
  queryTerms,
  rerankDepth,
  rescore,
  toHits,
} from "../internal/rescore.js";
import { fieldValue, parseScope } from "../internal/scope.js";
import { checkDocument, checkPage, originalOf } from "../internal/stored-documents.js";
import type { ShareSearchIndexOptions } from "../search-index.js";
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
  RemoveOptions,
  SearchDocument,
  SearchIndex,
  SearchOptions,
  SearchResponse,
  StoredDocument,
} from "../types.js";
import { Connection } from "./connection.js";
import { type IndexRows, listPgDocuments, originalParams, readPgDocument } from "./documents.js";
import { MIGRATED_PG_SCHEMA_VERSIONS, PG_SCHEMA_VERSION, quoteIdent } from "./schema.js";
import { fieldPair, noNul, type PgScope, pgScope } from "./scope.js";
import { listenForChanges, notifyChange } from "./watch.js";

const DEFAULT_CHUNKING: ChunkOptions = { size: 300, overlap: 50 };
/** Positions kept per term and chunk (PostgreSQL's tsvector limit); BM25 saturates long before. */
const MAX_POSITIONS = 255;
/** Body occurrences are numbered from here, title occurrences from 1: a term's title frequency is the count of its positions up to BODY_START - 1. */
const BODY_START = 8193;
/** Chunks written by one `add` after which the tables are analysed. */
const ANALYZE_AFTER = 1_000;
/** One term of a tsvector's text form with its positions: `'term':1,8193B`. */
const HIT = /'((?:[^']|'')*)':([0-9A-D,]+)/g;

const clean = noNul;
const nullable = (text: string | undefined): string | null => (text === undefined ? null : clean(text));

/** A term as a quoted tsvector / tsquery lexeme. */
const lexeme = (term: string): string => `'${term.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/** The first pass's IDF: FTS5's, ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6 as FTS5 does. */
const fts5Idf = (chunks: number, containing: number): number => {
  const value = Math.log((chunks - containing + 0.5) / (containing + 0.5));
  return value <= 0 ? 1e-6 : value;
};

/**
 * A chunk's terms as a tsvector: each term once, one position per occurrence, title occurrences numbered from 1
 * and body occurrences from BODY_START, so that a term's title and body frequencies are counts of positions
 * below and above BODY_START.
 */
function tsvectorOf(title: readonly string[], body: readonly string[]): string {
  const counts = new Map<string, [number, number]>();
  for (const term of title) {
    const entry = counts.get(term);
    if (entry) entry[0]++;
    else counts.set(term, [1, 0]);
  }
  for (const term of body) {
    const entry = counts.get(term);
    if (entry) entry[1]++;
    else counts.set(term, [0, 1]);
  }
  const parts: string[] = [];
  for (const [term, [t, b]] of counts) {
    const positions: string[] = [];
    for (let i = 0; i < t && positions.length < MAX_POSITIONS; i++) positions.push(String(1 + i));
    for (let i = 0; i < b && positions.length < MAX_POSITIONS; i++) positions.push(String(BODY_START + i));
    parts.push(`${lexeme(term)}:${positions.join(",")}`);
  }
  return parts.join(" ");
}

/** Distinct terms of a chunk (title and body), for document frequencies. */
function distinctTerms(title: string, body: string): Set<string> {
  const set = new Set<string>();
  for (const text of [title, body]) if (text) for (const term of text.split(" ")) set.add(term);
  return set;
}

/**
 * Opens (or creates) an index in a PostgreSQL schema. Use {@link openSearchIndex} with `databaseUrl`, which
 * loads this module only then.
 */
export async function openPostgresSearchIndex(options: OpenPostgresSearchIndexOptions): Promise<SearchIndex> {
  const { databaseUrl } = options;
  if (typeof databaseUrl !== "string" || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new SearchError("invalid_option", "databaseUrl must be a postgres:// or postgresql:// URL");
  }
  const schema = options.schema ?? "quiver_search";
  const name = options.name ?? "default";
  const principal = options.principal ?? "";
  const reader = options.reader ?? principal;
  const poolSize = options.poolSize ?? 10;
  if (typeof schema !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new SearchError("invalid_option", "schema must be a plain identifier (letters, digits, _)");
  }
  if (typeof name !== "string" || name.length === 0)
    throw new SearchError("invalid_option", "name must be a non-empty string");
  if (typeof principal !== "string") throw new SearchError("invalid_option", "principal must be a string");
  if (typeof reader !== "string") throw new SearchError("invalid_option", "reader must be a string");
  if (!Number.isInteger(poolSize) || poolSize < 1)
    throw new SearchError("invalid_option", "poolSize must be a positive integer");
  const connection = Connection.acquire(databaseUrl, poolSize);
  try {
    await connection.prepare(schema);
    const chunking = await connection.transaction(reader, (client) =>
      reader === principal
        ? openIndexRow(client, quoteIdent(schema), name, principal, options.chunk, connection.where)
        : readIndexRow(client, quoteIdent(schema), name, principal, connection.where),
    );
    return new PostgresSearchIndex(connection, quoteIdent(schema), schema, name, principal, reader, chunking);
  } catch (error) {
    await connection.release();
    throw error;
  }
}

/**
 * Reads another principal's index row as a reader: its chunking, after checking its versions. An index the
 * reader may not read (no grant) or that does not exist looks empty, with the default chunking.
 */
async function readIndexRow(
  client: pg.PoolClient,
  s: string,
  name: string,
  principal: string,
  where: string,
): Promise<ChunkOptions> {
  const row = (
    await client.query<{ schema_version: number; analyzer_version: number; size: number; overlap: number }>(
      `SELECT schema_version, analyzer_version, chunk_size AS size, chunk_overlap AS overlap
       FROM ${s}.indexes WHERE name = $1 AND principal = $2`,
      [name, principal],
    )
  ).rows[0];
  if (!row) return { ...DEFAULT_CHUNKING };
  checkVersions(row, name, where);
  return { size: row.size, overlap: row.overlap };
}

function checkVersions(
  row: { schema_version: number; analyzer_version: number },
  name: string,
  where: string,
) {
  const schemaKnown =
    row.schema_version === PG_SCHEMA_VERSION || MIGRATED_PG_SCHEMA_VERSIONS.includes(row.schema_version);
  if (!schemaKnown || row.analyzer_version !== ANALYZER_VERSION) {
    throw new SearchError(
      "incompatible_index",
      `the index ${JSON.stringify(name)} at ${where} was built by another version of @quiver/search (schema ` +
        `${row.schema_version}, analyzer ${row.analyzer_version}; this version writes schema ${PG_SCHEMA_VERSION}, ` +
        `analyzer ${ANALYZER_VERSION}). Rebuild it: remove its documents (or drop the schema) and add them again.`,
    );
  }
}

/** Creates the index's row or checks its versions (migrating an older one); stores chunking given in the options. */
async function openIndexRow(
  client: pg.PoolClient,
  s: string,
  name: string,
  principal: string,
  chunk: Partial<ChunkOptions> | undefined,
  where: string,
): Promise<ChunkOptions> {
  await client.query(
    `INSERT INTO ${s}.indexes (name, principal, schema_version, analyzer_version, chunk_size, chunk_overlap)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [name, principal, PG_SCHEMA_VERSION, ANALYZER_VERSION, DEFAULT_CHUNKING.size, DEFAULT_CHUNKING.overlap],
  );
  const row = (
    await client.query<{ schema_version: number; analyzer_version: number; size: number; overlap: number }>(
      `SELECT schema_version, analyzer_version, chunk_size AS size, chunk_overlap AS overlap
       FROM ${s}.indexes WHERE name = $1 AND principal = $2 FOR UPDATE`,
      [name, principal],
    )
  ).rows[0]!;
  checkVersions(row, name, where);
  if (row.schema_version !== PG_SCHEMA_VERSION) {
    await client.query(`UPDATE ${s}.indexes SET schema_version = $3 WHERE name = $1 AND principal = $2`, [
      name,
      principal,
      PG_SCHEMA_VERSION,
    ]);
  }
  const chunking: ChunkOptions = { size: row.size, overlap: row.overlap, ...chunk };
  const problem = chunkOptionsProblem(chunking);
  if (problem) throw new SearchError("invalid_option", problem);
  if (chunking.size !== row.size || chunking.overlap !== row.overlap) {
    await client.query(
      `UPDATE ${s}.indexes SET chunk_size = $3, chunk_overlap = $4 WHERE name = $1 AND principal = $2`,
      [name, principal, chunking.size, chunking.overlap],
    );
  }
  return chunking;
}

interface Corpus {
  readonly version: string;
  readonly chunks: number;
  readonly averageLength: number;
}

/** A chunk about to be written. */
interface NewChunk {
  readonly ord: number;
  readonly text: string;
  readonly terms: number;
  readonly title: string;
  readonly body: string;
  readonly tsv: string;
}

class PostgresSearchIndex implements SearchIndex {
  private writes: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Document frequencies, valid while the index row's `version` is `cacheVersion`. */
  private cacheVersion: string | undefined;
  private readonly frequencies = new Map<string, number>();
  private readonly changes: ChangeFeed;

  constructor(
    private readonly connection: Connection,
    /** The quoted schema. */
    private readonly s: string,
    private readonly schema: string,
    private readonly name: string,
    private readonly principal: string,
    /** Who the transactions run as: the principal, or a grantee reading the principal's index. */
    private readonly reader: string,
    private readonly chunking: ChunkOptions,
  ) {
    this.changes = new ChangeFeed(listenForChanges(connection.url, { schema, name, principal }));
  }

  watch(listener: IndexChangeListener): () => void {
    this.assertOpen();
    return this.changes.watch(listener);
  }

  /** Tells every listener of this index, in any process, at the commit of the caller's transaction. */
  private notify(client: pg.PoolClient, collection: string): Promise<void> {
    return notifyChange(
      client,
      { schema: this.schema, name: this.name, principal: this.principal },
      collection,
    );
  }

  async add(documents: Iterable<SearchDocument>, options: AddOptions = {}): Promise<AddResult> {
    this.assertWritable();
    const { collection, docs } = checkAdd(documents, options);
    return this.exclusive(async () => {
      let added = 0;
      let replaced = 0;
      let chunks = 0;
      for (let start = 0; start < docs.length; start += BATCH_SIZE) {
        const written = await this.transaction((client) =>
          this.writeBatch(client, collection, docs.slice(start, start + BATCH_SIZE)),
        );
        added += written.added;
        replaced += written.replaced;
        chunks += written.chunks;
        const done = Math.min(start + BATCH_SIZE, docs.length);
        options.onProgress?.(done, docs.length);
      }
      // A large load changes the tables' statistics: refresh them so the planner keeps using the indexes.
      if (chunks >= ANALYZE_AFTER) await this.connection.analyze(this.schema);
      return { added, replaced, chunks };
    });
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    this.assertOpen();
    const topK = checkSearch(query, options);
    const group = options.groupByDocument ?? true;
    const scope = pgScope(parseScope(options), 3);
    const terms = queryTerms(query);
    if (terms.length === 0 || options.collections?.length === 0) return { results: [], total: 0 };
    return this.transaction(async (client) => {
      const corpus = await this.corpus(client);
      await this.loadFrequencies(client, terms);
      const { candidates, documents, chunks } = await this.candidates(client, terms, scope, corpus);
      if (candidates.length === 0) return { results: [], total: 0 };
      const total = group ? documents : chunks;

      const depth = rerankDepth(candidates, topK, group);
      const rows = await client.query<ChunkTerms & { chunk: string }>(
        `SELECT rowid AS chunk, title_terms AS title, body_terms AS body FROM ${this.s}.chunks
         WHERE rowid = ANY($1::bigint[]) AND index_name = $2 AND principal = $3`,
        [candidates.slice(0, depth).map((c) => c.chunk), this.name, this.principal],
      );
      const termsOf = new Map(rows.rows.map((row) => [Number(row.chunk), row]));
      const feedback = options.feedback ?? true;
      if (feedback) {
        // The feedback documents' terms need their IDF: fetch the ones not cached, in one statement.
        const wanted = new Set<string>();
        for (const doc of feedbackDocuments(candidates.slice(0, depth), termsOf)) {
          for (const term of doc.terms.title.keys()) wanted.add(term);
          for (const term of doc.terms.body.keys()) wanted.add(term);
        }
        await this.loadFrequencies(client, [...wanted]);
      }
      const bound = rescore(
        candidates,
        depth,
        termsOf,
        terms,
        (term) => idf(corpus.chunks, this.frequencies.get(term) ?? 0),
        corpus.averageLength,
        feedback,
      );
      const picked = pick(candidates, topK, group);
      const hits = await client.query<HitRow>(
        `SELECT c.rowid AS chunk, c.ord, c.text, d.id, d.collection, d.title, d.date, d.doi, d.authors, d.tags,
                d.metadata, d.chunks
         FROM ${this.s}.chunks c JOIN ${this.s}.documents d ON d.rowid = c.doc
         WHERE c.rowid = ANY($1::bigint[]) AND c.index_name = $2 AND c.principal = $3`,
        [picked.map((p) => p.chunk), this.name, this.principal],
      );
      return { results: toHits(picked, hits.rows, bound, new Set(terms)), total };
    });
  }

  async count(options: CountOptions = {}): Promise<number> {
    this.assertOpen();
    const scope = pgScope(parseScope(options), 3);
    if (options.collections?.length === 0) return 0;
    if (options.query !== undefined && typeof options.query !== "string")
      throw new SearchError("invalid_option", "query must be a string");
    const terms = options.query === undefined ? undefined : queryTerms(options.query);
    if (terms?.length === 0) return 0;
    return this.transaction(async (client) => {
      if (terms) return this.countMatches(client, terms, scope, true);
      const row = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${this.s}.documents d
         WHERE d.index_name = $1 AND d.principal = $2${scope.where}`,
        [this.name, this.principal, ...scope.params],
      );
      return Number(row.rows[0]!.n);
    });
  }

  async remove(ids: string | readonly string[], options: RemoveOptions = {}): Promise<number> {
    this.assertWritable();
    const collection = checkCollection(options.collection);
    const list = (typeof ids === "string" ? [ids] : [...ids]).map(clean);
    return this.exclusive(() =>
      this.transaction(async (client) => {
        await this.lockIndex(client);
        await this.notify(client, collection);
        const removed = await this.deleteDocuments(client, "d.collection = $3 AND d.id = ANY($4::text[])", [
          clean(collection),
          list,
        ]);
        return removed.documents;
      }),
    );
  }

  async removeCollection(name: string): Promise<number> {
    this.assertWritable();
    const collection = checkCollection(name);
    return this.exclusive(() =>
      this.transaction(async (client) => {
        await this.lockIndex(client);
        await this.notify(client, collection);
        return (await this.deleteDocuments(client, "d.collection = $3", [clean(collection)])).documents;
      }),
    );
  }

  async collections(): Promise<readonly CollectionInfo[]> {
    this.assertOpen();
    return this.transaction(async (client) => {
      const rows = await client.query<{ name: string; documents: string; chunks: string }>(
        `SELECT collection AS name, count(*) AS documents, sum(chunks) AS chunks FROM ${this.s}.documents
         WHERE index_name = $1 AND principal = $2 GROUP BY collection ORDER BY collection COLLATE "C"`,
        [this.name, this.principal],
      );
      return rows.rows.map((r) => ({
        name: r.name,
        documents: Number(r.documents),
        chunks: Number(r.chunks),
      }));
    });
  }

  /** Where this index's rows are, for the document readers. */
  private get rows(): IndexRows {
    return { s: this.s, name: this.name, principal: this.principal };
  }

  async document(id: string, options: DocumentOptions = {}): Promise<StoredDocument | undefined> {
    this.assertOpen();
    const document = checkDocument(id, options);
    return this.transaction((client) => readPgDocument(client, this.rows, document.collection, document.id));
  }

  async documents(options: ListDocumentsOptions = {}): Promise<DocumentPage> {
    this.assertOpen();
    const page = checkPage(options);
    return this.transaction((client) => listPgDocuments(client, this.rows, page));
  }

  async stats(): Promise<IndexStats> {
    this.assertOpen();
    return this.transaction(async (client) => {
      const row = await client.query<{
        documents: string;
        chunks: string;
        collections: string;
        terms: string;
      }>(
        `SELECT
           (SELECT count(*) FROM ${this.s}.documents WHERE index_name = $1 AND principal = $2) AS documents,
           (SELECT count(*) FROM ${this.s}.chunks WHERE index_name = $1 AND principal = $2) AS chunks,
           (SELECT count(DISTINCT collection) FROM ${this.s}.documents WHERE index_name = $1 AND principal = $2)
             AS collections,
           (SELECT count(*) FROM ${this.s}.vocabulary WHERE index_name = $1 AND principal = $2) AS terms`,
        [this.name, this.principal],
      );
      const r = row.rows[0]!;
      return {
        path: `${this.connection.where}#${this.schema}.${this.name}`,
        documents: Number(r.documents),
        chunks: Number(r.chunks),
        collections: Number(r.collections),
        terms: Number(r.terms),
        chunking: { ...this.chunking },
      };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.changes.close();
    await this.writes.catch(() => undefined);
    await this.connection.release();
  }

  private assertOpen(): void {
    if (this.closed) throw new SearchError("closed", "the search index is closed");
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.reader !== this.principal) {
      throw new SearchError(
        "invalid_option",
        "this index was opened by a reader (reader differs from principal): only its principal can change it",
      );
    }
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.connection.transaction(this.reader, work);
  }

  /** Runs writes one after another within this process; other processes wait on the index row's lock. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work, work);
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Locks the index row: writers of one index, in any process, take turns. */
  private async lockIndex(client: pg.PoolClient): Promise<void> {
    await client.query(`SELECT 1 FROM ${this.s}.indexes WHERE name = $1 AND principal = $2 FOR UPDATE`, [
      this.name,
      this.principal,
    ]);
  }

  /** The index row's statistics; drops cached frequencies when another write happened since they were read. */
  private async corpus(client: pg.PoolClient): Promise<Corpus> {
    const row = (
      await client.query<{ version: string; chunks: string; total: string }>(
        `SELECT version, chunk_count AS chunks, term_total AS total FROM ${this.s}.indexes
         WHERE name = $1 AND principal = $2`,
        [this.name, this.principal],
      )
    ).rows[0];
    const version = row?.version ?? "gone";
    if (version !== this.cacheVersion) {
      this.cacheVersion = version;
      this.frequencies.clear();
    }
    const chunks = Number(row?.chunks ?? 0);
    return { version, chunks, averageLength: Number(row?.total ?? 0) / Math.max(1, chunks) };
  }

  /** Reads the document frequencies of the terms not cached yet. */
  private async loadFrequencies(client: pg.PoolClient, terms: readonly string[]): Promise<void> {
    const missing = terms.filter((t) => !this.frequencies.has(t));
    if (missing.length === 0) return;
    if (this.frequencies.size + missing.length >= 500_000) this.frequencies.clear();
    const rows = await client.query<{ term: string; chunks: string }>(
      `SELECT term, chunks FROM ${this.s}.vocabulary
       WHERE index_name = $1 AND principal = $2 AND term = ANY($3::text[])`,
      [this.name, this.principal, missing],
    );
    for (const t of missing) this.frequencies.set(t, 0);
    for (const r of rows.rows) this.frequencies.set(r.term, Number(r.chunks));
  }

  /**
   * First pass: the best CANDIDATE_DEPTH chunks within the scope by FTS5's BM25 (title weight, FTS5's IDF and
   * lengths), best first, ties by rowid: the order the SQLite store's first pass gives. The GIN index finds the
   * chunks holding any term; for each, `setweight` + `ts_filter` cut the tsvector down to the query's terms and
   * their positions (in C, without unnesting it), and the scores are summed here, in the query's term order as
   * FTS5 does. Also counts the matching documents and chunks.
   */
  private async candidates(
    client: pg.PoolClient,
    terms: readonly string[],
    scope: PgScope,
    corpus: Corpus,
  ): Promise<{ candidates: Candidate[]; documents: number; chunks: number }> {
    const next = 3 + scope.params.length;
    const rows = await client.query<{ chunk: string; doc: string; terms: number; hits: string }>(
      `SELECT c.rowid AS chunk, c.doc, c.terms, ts_filter(setweight(c.tsv, 'B', $${next + 1}::text[]), '{B}')::text AS hits
       FROM ${this.s}.chunks c${scope.where ? ` JOIN ${this.s}.documents d ON d.rowid = c.doc` : ""}
       WHERE c.tsv @@ $${next}::tsquery AND c.index_name = $1 AND c.principal = $2${scope.where}`,
      [this.name, this.principal, ...scope.params, terms.map(lexeme).join(" | "), terms],
    );
    const idfs = new Map(terms.map((t) => [t, fts5Idf(corpus.chunks, this.frequencies.get(t) ?? 0)]));
    const averageLength = Math.max(corpus.averageLength, Number.MIN_VALUE);
    const docs = new Set<string>();
    const scored: Candidate[] = [];
    const tf = new Map<string, number>();
    for (const row of rows.rows) {
      docs.add(row.doc);
      tf.clear();
      for (const match of row.hits.matchAll(HIT)) {
        const positions = match[2]!.split(",");
        let title = 0;
        for (const position of positions) if (Number.parseInt(position, 10) < BODY_START) title++;
        tf.set(
          match[1]!.replaceAll("''", "'").replaceAll("\\\\", "\\"),
          positions.length + (TITLE_WEIGHT - 1) * title,
        );
      }
      const norm = K1 * (1 - B + (B * row.terms) / averageLength);
      let score = 0;
      for (const term of terms) {
        const f = tf.get(term);
        if (f !== undefined) score += (idfs.get(term)! * (f * (K1 + 1))) / (f + norm);
      }
      scored.push({ chunk: Number(row.chunk), doc: Number(row.doc), score });
    }
    scored.sort((x, y) => y.score - x.score || x.chunk - y.chunk);
    return { candidates: scored.slice(0, CANDIDATE_DEPTH), documents: docs.size, chunks: scored.length };
  }

  private async countMatches(
    client: pg.PoolClient,
    terms: readonly string[],
    scope: PgScope,
    group: boolean,
  ): Promise<number> {
    // Counted in the same statement as the candidates when searching; this is `count({ query })`.
    const row = await client.query<{ n: string }>(
      `SELECT count(${group ? "DISTINCT c.doc" : "*"}) AS n
       FROM ${this.s}.chunks c${scope.where ? ` JOIN ${this.s}.documents d ON d.rowid = c.doc` : ""}
       WHERE c.tsv @@ $${3 + scope.params.length}::tsquery AND c.index_name = $1 AND c.principal = $2${scope.where}`,
      [this.name, this.principal, ...scope.params, terms.map(lexeme).join(" | ")],
    );
    return Number(row.rows[0]!.n);
  }

  /**
   * Deletes the documents matching `condition` (on `d`, parameters from $3) with their chunks, and takes their
   * terms out of the vocabulary and statistics.
   */
  private async deleteDocuments(
    client: pg.PoolClient,
    condition: string,
    params: unknown[],
  ): Promise<{ documents: number; ids: Set<string> }> {
    const chunks = await client.query<{ title: string; body: string; terms: number }>(
      `DELETE FROM ${this.s}.chunks c USING ${this.s}.documents d
       WHERE c.doc = d.rowid AND d.index_name = $1 AND d.principal = $2 AND ${condition}
       RETURNING c.title_terms AS title, c.body_terms AS body, c.terms`,
      [this.name, this.principal, ...params],
    );
    const docs = await client.query<{ id: string }>(
      `DELETE FROM ${this.s}.documents d WHERE d.index_name = $1 AND d.principal = $2 AND ${condition}
       RETURNING d.id`,
      [this.name, this.principal, ...params],
    );
    if (docs.rowCount === 0) return { documents: 0, ids: new Set() };
    const delta = new Map<string, number>();
    let total = 0;
    for (const chunk of chunks.rows) {
      total += chunk.terms;
      for (const term of distinctTerms(chunk.title, chunk.body)) delta.set(term, (delta.get(term) ?? 0) - 1);
    }
    await this.applyDelta(client, delta, -chunks.rows.length, -total);
    return { documents: docs.rowCount ?? 0, ids: new Set(docs.rows.map((r) => r.id)) };
  }

  /** Adds per-term chunk counts to the vocabulary (dropping terms no chunk holds) and to the index row. */
  private async applyDelta(
    client: pg.PoolClient,
    delta: ReadonlyMap<string, number>,
    chunks: number,
    total: number,
  ): Promise<void> {
    const entries = [...delta].filter(([, n]) => n !== 0).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    if (entries.length > 0) {
      await client.query(
        `INSERT INTO ${this.s}.vocabulary AS v (index_name, principal, term, chunks)
         SELECT $1, $2, t, n FROM unnest($3::text[], $4::bigint[]) AS x (t, n)
         ON CONFLICT (index_name, principal, term) DO UPDATE SET chunks = v.chunks + excluded.chunks`,
        [this.name, this.principal, entries.map((e) => e[0]), entries.map((e) => e[1])],
      );
      if (entries.some(([, n]) => n < 0)) {
        await client.query(
          `DELETE FROM ${this.s}.vocabulary WHERE index_name = $1 AND principal = $2 AND chunks <= 0`,
          [this.name, this.principal],
        );
      }
    }
    await client.query(
      `UPDATE ${this.s}.indexes SET version = version + 1, chunk_count = chunk_count + $3,
         term_total = term_total + $4 WHERE name = $1 AND principal = $2`,
      [this.name, this.principal, chunks, total],
    );
  }

  /**
   * Writes one batch in the caller's transaction: replaces the documents whose id exists (a repeated id in
   * the batch: the last one wins, the earlier ones count as added then replaced, as in the SQLite store).
   */
  private async writeBatch(
    client: pg.PoolClient,
    collection: string,
    batch: readonly SearchDocument[],
  ): Promise<AddResult> {
    await this.lockIndex(client);
    await this.notify(client, collection);
    const ids = batch.map((doc) => clean(doc.id));
    const existing = (
      await this.deleteDocuments(client, "d.collection = $3 AND d.id = ANY($4::text[])", [
        clean(collection),
        [...new Set(ids)],
      ])
    ).ids;
    let added = 0;
    let replaced = 0;
    let chunkCount = 0;
    const seen = new Set<string>();
    const last = new Map<string, number>();
    for (const [i, id] of ids.entries()) last.set(id, i);

    const docRows: SearchDocument[] = [];
    const chunksOf: NewChunk[][] = [];
    batch.forEach((doc, i) => {
      const id = ids[i]!;
      if (existing.has(id) || seen.has(id)) replaced++;
      else added++;
      seen.add(id);
      const pieces = chunkText(doc.text, this.chunking);
      if (pieces.length === 0) pieces.push({ text: "", start: 0, end: 0, words: 0 });
      chunkCount += pieces.length;
      if (last.get(id) !== i) return;
      const titleTerms = analyze(doc.title ?? "");
      docRows.push(doc);
      chunksOf.push(
        pieces.map((piece, ord) => {
          const bodyTerms = analyze(piece.text);
          return {
            ord,
            text: clean(piece.text),
            terms: titleTerms.length + bodyTerms.length,
            title: titleTerms.join(" "),
            body: bodyTerms.join(" "),
            tsv: tsvectorOf(titleTerms, bodyTerms),
          };
        }),
      );
    });
    if (docRows.length === 0) return { added, replaced, chunks: chunkCount };

    const column = <T>(f: (doc: SearchDocument, i: number) => T): T[] => docRows.map(f);
    const authorsOf = docRows.map((doc) =>
      (doc.authors ?? []).map(authorName).filter((a) => a !== undefined),
    );
    const inserted = await client.query<{ rowid: string }>(
      `INSERT INTO ${this.s}.documents (index_name, principal, collection, id, title, date, date_key, doi,
         authors, tags, metadata, chunks, author_names, author_lasts, tag_keys, fields, original, original_size,
         original_bytes)
       SELECT $1, $2, $3, x.id, x.title, x.date, x.date_key, x.doi, x.authors, x.tags, x.metadata, x.chunks,
         ARRAY(SELECT jsonb_array_elements_text(x.author_names::jsonb)),
         ARRAY(SELECT jsonb_array_elements_text(x.author_lasts::jsonb)),
         ARRAY(SELECT jsonb_array_elements_text(x.tag_keys::jsonb)),
         ARRAY(SELECT jsonb_array_elements_text(x.fields::jsonb)), x.original, x.size, x.bytes
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
         $11::text[], $12::integer[], $13::text[], $14::text[], $15::text[], $16::text[], $17::bytea[],
         $18::integer[], $19::integer[])
         WITH ORDINALITY AS x (id, title, date, date_key, doi, authors, tags, metadata, chunks, author_names,
           author_lasts, tag_keys, fields, original, size, bytes, n)
       ORDER BY x.n
       RETURNING rowid`,
      [
        this.name,
        this.principal,
        clean(collection),
        column((doc) => clean(doc.id)),
        column((doc) => nullable(doc.title)),
        column((doc) => nullable(doc.date)),
        column((doc) => (doc.date === undefined ? null : (dateKey(doc.date) ?? null))),
        column((doc) => nullable(doc.doi)),
        column((_, i) =>
          authorsOf[i]!.length > 0 ? JSON.stringify(authorsOf[i]!.map((a) => a.display)) : null,
        ),
        column((doc) => ((doc.tags ?? []).length > 0 ? JSON.stringify(doc.tags) : null)),
        column((doc) => JSON.stringify(doc.metadata ?? {})),
        column((_, i) => chunksOf[i]!.length),
        column((_, i) => JSON.stringify(authorsOf[i]!.map((a) => a.name))),
        column((_, i) => JSON.stringify(authorsOf[i]!.map((a) => a.last))),
        column((doc) => JSON.stringify([...new Set((doc.tags ?? []).map((t) => clean(tagKey(t))))])),
        column((doc) => JSON.stringify(metadataPairs(doc))),
        ...originalParams(docRows.map((doc) => originalOf(doc.text))),
      ],
    );
    // Rows come back in insertion order (one sequence, one statement, ordered by the input position).
    const rowids = inserted.rows.map((r) => r.rowid);
    const doc: string[] = [];
    const ord: number[] = [];
    const text: string[] = [];
    const terms: number[] = [];
    const title: string[] = [];
    const body: string[] = [];
    const tsv: string[] = [];
    const delta = new Map<string, number>();
    let total = 0;
    chunksOf.forEach((chunks, i) => {
      for (const chunk of chunks) {
        doc.push(rowids[i]!);
        ord.push(chunk.ord);
        text.push(chunk.text);
        terms.push(chunk.terms);
        title.push(chunk.title);
        body.push(chunk.body);
        tsv.push(chunk.tsv);
        total += chunk.terms;
        for (const term of distinctTerms(chunk.title, chunk.body))
          delta.set(term, (delta.get(term) ?? 0) + 1);
      }
    });
    await client.query(
      `INSERT INTO ${this.s}.chunks (doc, index_name, principal, ord, text, terms, title_terms, body_terms, tsv)
       SELECT x.doc, $1, $2, x.ord, x.text, x.terms, x.title, x.body, x.tsv
       FROM unnest($3::bigint[], $4::integer[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::tsvector[])
         WITH ORDINALITY AS x (doc, ord, text, terms, title, body, tsv, n)
       ORDER BY x.n`,
      [this.name, this.principal, doc, ord, text, terms, title, body, tsv],
    );
    await this.applyDelta(client, delta, doc.length, total);
    return { added, replaced, chunks: chunkCount };
  }
}

/** A document's metadata as `[key, stored value]` pairs (JSON), one per value of a list. */
function metadataPairs(doc: SearchDocument): string[] {
  const pairs = new Set<string>();
  for (const [key, value] of Object.entries(doc.metadata ?? {})) {
    const values: readonly (string | number | boolean)[] = Array.isArray(value) ? value : [value as string];
    for (const item of values) pairs.add(fieldPair(key, fieldValue(item)));
  }
  return [...pairs];
}

/** Writes or deletes a grant as the index's owner. */
async function changeGrant(options: ShareSearchIndexOptions, add: boolean): Promise<boolean> {
  const schema = options.schema ?? "quiver_search";
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new SearchError("invalid_option", "schema must be a plain identifier (letters, digits, _)");
  }
  if (typeof options.principal !== "string" || typeof options.grantee !== "string") {
    throw new SearchError("invalid_option", "principal and grantee must be strings");
  }
  const connection = Connection.acquire(options.databaseUrl, 2);
  try {
    await connection.prepare(schema);
    const s = quoteIdent(schema);
    const name = options.name ?? "default";
    return await connection.transaction(options.principal, async (client) => {
      const result = add
        ? await client.query(
            `INSERT INTO ${s}.grants (index_name, owner, grantee) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
            [name, options.principal, options.grantee],
          )
        : await client.query(
            `DELETE FROM ${s}.grants WHERE index_name = $1 AND owner = $2 AND grantee = $3`,
            [name, options.principal, options.grantee],
          );
      return (result.rowCount ?? 0) > 0;
    });
  } finally {
    await connection.release();
  }
}

/** Lets `grantee` read `principal`'s rows of an index (idempotent); true when the grant is new. */
export const shareSearchIndex = (options: ShareSearchIndexOptions): Promise<boolean> =>
  changeGrant(options, true);

/** Withdraws a grant; true when there was one. */
export const unshareSearchIndex = (options: ShareSearchIndexOptions): Promise<boolean> =>
  changeGrant(options, false);
