import type { DatabaseSync } from "node:sqlite";
import { SearchError } from "../errors.js";
import { ANALYZER_VERSION } from "./analyzer.js";

/**
 * Bumped when tables change shape. An index of schema 1 is migrated in place (its documents gain the original
 * text columns, empty for the documents it holds); an index of any other version is refused with a clear message.
 * 2: `documents.original` (the text as added), `original_size` (characters) and `original_bytes` (UTF-8 bytes).
 */
export const SCHEMA_VERSION = 2;

/** Columns schema 2 added to `documents`: NULL in the rows of documents added before them. */
const ORIGINAL_COLUMNS = ["original TEXT", "original_size INTEGER", "original_bytes INTEGER"];

/**
 * Documents and their filterable fields are plain tables; chunk texts live in `chunks`; their analysed terms
 * (title and body, space-separated, already stemmed) in the FTS5 table `chunk_terms`, whose rowid is the
 * chunk's. The `ascii` tokenizer splits on the spaces only (terms are letters and digits), so FTS5 indexes
 * exactly the terms the analyzer produced, and BM25 lengths computed in JavaScript agree with FTS5's.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
  rowid INTEGER PRIMARY KEY,
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  title TEXT,
  date TEXT,
  date_key TEXT,
  doi TEXT,
  authors TEXT,
  tags TEXT,
  metadata TEXT NOT NULL,
  chunks INTEGER NOT NULL,
  ${ORIGINAL_COLUMNS.join(",\n  ")},
  UNIQUE (collection, id)
);
CREATE INDEX IF NOT EXISTS documents_date ON documents (date_key);
CREATE TABLE IF NOT EXISTS document_authors (doc INTEGER NOT NULL, name TEXT NOT NULL, last TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS document_authors_doc ON document_authors (doc);
CREATE INDEX IF NOT EXISTS document_authors_name ON document_authors (name);
CREATE INDEX IF NOT EXISTS document_authors_last ON document_authors (last);
CREATE TABLE IF NOT EXISTS document_tags (doc INTEGER NOT NULL, tag TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS document_tags_doc ON document_tags (doc);
CREATE INDEX IF NOT EXISTS document_tags_tag ON document_tags (tag);
CREATE TABLE IF NOT EXISTS document_fields (doc INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS document_fields_doc ON document_fields (doc);
CREATE INDEX IF NOT EXISTS document_fields_key ON document_fields (key, value);
CREATE TABLE IF NOT EXISTS chunks (
  rowid INTEGER PRIMARY KEY,
  doc INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  text TEXT NOT NULL,
  terms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks (doc, ord);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_terms USING fts5 (title, body, tokenize = 'ascii');
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_vocabulary USING fts5vocab (chunk_terms, 'row');
`;

function meta(db: DatabaseSync, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM search_meta WHERE key = ?").get(key) as
    | { value: string }
    | undefined;
  return row?.value;
}

/** Writes a setting. */
export function setMeta(db: DatabaseSync, key: string, value: string | number): void {
  db.prepare(
    "INSERT INTO search_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(key, String(value));
}

/** Reads a numeric setting. */
export function numericMeta(db: DatabaseSync, key: string): number | undefined {
  const value = meta(db, key);
  return value === undefined ? undefined : Number(value);
}

/**
 * Creates the tables of a new index, migrates one of schema 1 (adding the original text columns), or checks
 * that an existing one has this version's schema and analyzer; in one transaction, so a failed migration
 * leaves the file as it was.
 */
export function migrate(db: DatabaseSync, path: string): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    db.exec(DDL);
    const schema = meta(db, "schema_version");
    const analyzer = meta(db, "analyzer_version");
    if (schema === undefined) {
      setMeta(db, "schema_version", SCHEMA_VERSION);
      setMeta(db, "analyzer_version", ANALYZER_VERSION);
    } else if (Number(schema) === 1 && Number(analyzer) === ANALYZER_VERSION) {
      for (const column of ORIGINAL_COLUMNS) db.exec(`ALTER TABLE documents ADD COLUMN ${column}`);
      setMeta(db, "schema_version", SCHEMA_VERSION);
    } else if (Number(schema) !== SCHEMA_VERSION || Number(analyzer) !== ANALYZER_VERSION) {
      throw new SearchError(
        "incompatible_index",
        `${path} was built by another version of @quiver/search (schema ${schema}, analyzer ${analyzer}; ` +
          `this version writes schema ${SCHEMA_VERSION}, analyzer ${ANALYZER_VERSION}). Rebuild it: delete the file and add the documents again.`,
      );
    }
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
