import { SearchError } from "../errors.js";
import type {
  DocumentOptions,
  DocumentSummary,
  ListDocumentsOptions,
  MetadataValue,
  StoredDocument,
} from "../types.js";
import { checkCollection, type HitRow } from "./rescore.js";

/**
 * What both stores share to read documents back: option checks, the page cursor and the shape of a stored
 * document. The stores differ only in how they fetch the rows.
 */

/** Documents per page of `documents()` unless asked otherwise, and at most. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** What a document added before the index kept original texts answers instead of its text. */
export const TEXT_MISSING =
  "this document was indexed before @quiver/search kept original texts (schema 1): only its chunks are " +
  "stored, and they overlap, so its text is not rebuilt from them. Add it again to read it whole.";

/** The original text as a store writes it: the text, its length in characters and in UTF-8 bytes. */
export interface Original {
  readonly text: string;
  readonly size: number;
  readonly bytes: number;
}

/** The original of a document's text, with the sizes kept beside it so that listings never read the text. */
export function originalOf(text: string): Original {
  return { text, size: text.length, bytes: Buffer.byteLength(text, "utf8") };
}

/** A documents() page's checked options: the collection, the page size, and the id to start after. */
export interface PageRequest {
  readonly collection: string;
  readonly limit: number;
  /** `""` for the first page: ids are never empty, so every id sorts after it. */
  readonly after: string;
}

/** The cursor after a document: its id, base64url-encoded (opaque to callers). */
export function cursorAfter(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** Checks the arguments of `document()`: the id and its collection. */
export function checkDocument(id: unknown, options: DocumentOptions): { id: string; collection: string } {
  if (typeof id !== "string") throw new SearchError("invalid_option", "id must be a string");
  return { id, collection: checkCollection(options.collection) };
}

/** Checks the options of `documents()`; a cursor must be one a page returned. */
export function checkPage(options: ListDocumentsOptions): PageRequest {
  const collection = checkCollection(options.collection);
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new SearchError("invalid_option", `limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}`);
  }
  const { cursor } = options;
  if (cursor === undefined) return { collection, limit, after: "" };
  const after = typeof cursor === "string" ? Buffer.from(cursor, "base64url").toString("utf8") : undefined;
  if (after === undefined || after.length === 0 || cursorAfter(after) !== cursor) {
    throw new SearchError("invalid_option", "cursor must be the nextCursor of a documents() page");
  }
  return { collection, limit, after };
}

/** A document's row as both stores read it; `text` is null for a document added before originals were kept. */
export interface DocumentRow extends Omit<HitRow, "chunk" | "ord" | "text"> {
  readonly text: string | null;
  readonly size: number | null;
  readonly bytes: number | null;
}

/** The sizes of a kept original, or the reason there is none. */
function sizes(row: {
  size: number | null;
  bytes: number | null;
}): { size: number; bytes: number } | { textMissing: string } {
  return row.size === null || row.bytes === null
    ? { textMissing: TEXT_MISSING }
    : { size: Number(row.size), bytes: Number(row.bytes) };
}

/** A stored document from its row. */
export function toStoredDocument(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    collection: row.collection,
    ...(row.title === null ? {} : { title: row.title }),
    metadata: JSON.parse(row.metadata) as Record<string, MetadataValue>,
    ...(row.authors === null ? {} : { authors: JSON.parse(row.authors) as string[] }),
    ...(row.date === null ? {} : { date: row.date }),
    ...(row.tags === null ? {} : { tags: JSON.parse(row.tags) as string[] }),
    ...(row.doi === null ? {} : { doi: row.doi }),
    chunks: Number(row.chunks),
    ...(row.text === null ? {} : { text: row.text }),
    ...sizes(row),
  };
}

/** A listing row: the summary fields of a document. */
export type SummaryRow = Pick<DocumentRow, "id" | "title" | "date" | "size" | "bytes">;

/** The page of `limit` documents from rows fetched with one more, which tells whether a next page exists. */
export function toPage(
  rows: readonly SummaryRow[],
  limit: number,
): { documents: DocumentSummary[]; nextCursor?: string } {
  const documents = rows.slice(0, limit).map((row) => ({
    id: row.id,
    ...(row.title === null ? {} : { title: row.title }),
    ...(row.date === null ? {} : { date: row.date }),
    ...sizes(row),
  }));
  const last = documents.at(-1);
  return rows.length > limit && last ? { documents, nextCursor: cursorAfter(last.id) } : { documents };
}
