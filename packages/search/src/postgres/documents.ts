import type pg from "pg";
import {
  type DocumentRow,
  type Original,
  type PageRequest,
  type SummaryRow,
  toPage,
  toStoredDocument,
} from "../internal/stored-documents.js";
import type { DocumentPage, StoredDocument } from "../types.js";
import { noNul } from "./scope.js";

/**
 * The PostgreSQL store's original texts: written as UTF-8 bytes (`bytea`, so NUL and every other character
 * come back as given, whatever the database's encoding) and read back through the caller's transaction, so
 * row-level security shows a principal only its own rows and those granted to it.
 */

/** Where an index's rows are: the quoted schema, the index name and its owner. */
export interface IndexRows {
  readonly s: string;
  readonly name: string;
  readonly principal: string;
}

/** The three `documents` columns of the originals, as parameters of the batch insert's `unnest`. */
export function originalParams(originals: readonly Original[]): [Buffer[], number[], number[]] {
  return [
    originals.map((o) => Buffer.from(o.text, "utf8")),
    originals.map((o) => o.size),
    originals.map((o) => o.bytes),
  ];
}

/** Reads one document with its original text; undefined when absent or not visible to the transaction. */
export async function readPgDocument(
  client: pg.PoolClient,
  index: IndexRows,
  collection: string,
  id: string,
): Promise<StoredDocument | undefined> {
  const row = (
    await client.query<Omit<DocumentRow, "text"> & { original: Buffer | null }>(
      `SELECT id, collection, title, date, doi, authors, tags, metadata, chunks, original,
              original_size AS size, original_bytes AS bytes
       FROM ${index.s}.documents WHERE index_name = $1 AND principal = $2 AND collection = $3 AND id = $4`,
      [index.name, index.principal, noNul(collection), noNul(id)],
    )
  ).rows[0];
  if (!row) return undefined;
  const { original, ...fields } = row;
  return toStoredDocument({ ...fields, text: original === null ? null : original.toString("utf8") });
}

/** A page of a collection's documents by id in code point order (the listing index), without the texts. */
export async function listPgDocuments(
  client: pg.PoolClient,
  index: IndexRows,
  page: PageRequest,
): Promise<DocumentPage> {
  const rows = await client.query<SummaryRow>(
    `SELECT id, title, date, original_size AS size, original_bytes AS bytes FROM ${index.s}.documents
     WHERE index_name = $1 AND principal = $2 AND collection = $3 AND id COLLATE "C" > $4
     ORDER BY id COLLATE "C" LIMIT $5`,
    [index.name, index.principal, noNul(page.collection), noNul(page.after), page.limit + 1],
  );
  return toPage(rows.rows, page.limit);
}
