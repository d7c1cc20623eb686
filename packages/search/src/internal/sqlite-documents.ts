import type { StatementSync } from "node:sqlite";
import type { DocumentPage, StoredDocument } from "../types.js";
import {
  type DocumentRow,
  type PageRequest,
  type SummaryRow,
  toPage,
  toStoredDocument,
} from "./stored-documents.js";

/** The SQLite store's prepared-statement cache. */
type Statements = (sql: string) => StatementSync;

/** Reads one document of a collection with its original text (the SQLite store's `document()`). */
export function readSqliteDocument(
  statement: Statements,
  collection: string,
  id: string,
): StoredDocument | undefined {
  const row = statement(
    `SELECT id, collection, title, date, doi, authors, tags, metadata, chunks, original AS text,
            original_size AS size, original_bytes AS bytes
     FROM documents WHERE collection = ? AND id = ?`,
  ).get(collection, id) as DocumentRow | undefined;
  return row ? toStoredDocument(row) : undefined;
}

/**
 * A page of a collection's documents by id, after the cursor's id (the SQLite store's `documents()`). The
 * `(collection, id)` unique index serves both the range and the order; the texts are not read.
 */
export function listSqliteDocuments(statement: Statements, page: PageRequest): DocumentPage {
  const rows = statement(
    `SELECT id, title, date, original_size AS size, original_bytes AS bytes FROM documents
     WHERE collection = ? AND id > ? ORDER BY id LIMIT ?`,
  ).all(page.collection, page.after, page.limit + 1) as unknown as SummaryRow[];
  return toPage(rows, page.limit);
}
