import type { DocumentSummary, SearchIndex, StoredDocument } from "./types.js";

/** Extensions of the Markdown files `loadDocuments` reads: their text is still Markdown once indexed. */
const MARKDOWN = /\.(?:md|markdown)$/i;

/**
 * The MIME type of a stored document's text: `text/markdown` for a document loaded from a Markdown file
 * (its `metadata.source`), else `text/plain` (a BibTeX entry's or a JSON record's text is plain prose).
 *
 * @example
 * const doc = await index.document("notes/cells.md");
 * if (doc) console.log(documentMimeType(doc)); // "text/markdown"
 */
export function documentMimeType(doc: Pick<StoredDocument, "metadata">): string {
  const source = doc.metadata.source;
  return typeof source === "string" && MARKDOWN.test(source) ? "text/markdown" : "text/plain";
}

/**
 * Every document of a collection, by id, without their texts: {@link SearchIndex.documents} followed page
 * after page (1000 a page). For a whole listing (a resource, an export); a client that pages should call
 * `documents()` itself.
 *
 * @example
 * const all = await listAllDocuments(index, "bio101");
 * console.log(all.length, all[0]?.id);
 */
export async function listAllDocuments(
  index: Pick<SearchIndex, "documents">,
  collection?: string,
): Promise<DocumentSummary[]> {
  const all: DocumentSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await index.documents({
      ...(collection === undefined ? {} : { collection }),
      limit: 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
    all.push(...page.documents);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}
