/**
 * The private-repo plugin's resource URIs: a document of a collection by owner, collection and id, and a
 * collection's list. Every variable is percent-encoded whole (an id such as `notes/vitamin-d.md` holds `/`),
 * so each is one URI segment that the template's `{name}` matches and decodes.
 */

/** A document, as text: its original text exactly as added. */
export const DOCUMENT_TEMPLATE = "private-repo://documents/{owner}/{collection}/{id}";
/** A collection's documents, as JSON. */
export const COLLECTION_TEMPLATE = "private-repo://collections/{owner}/{collection}";

const enc = encodeURIComponent;

/** The URI of a document of `owner`'s collection. */
export const documentUri = (owner: string, collection: string, id: string): string =>
  `private-repo://documents/${enc(owner)}/${enc(collection)}/${enc(id)}`;

/** The URI of `owner`'s collection's list. */
export const collectionUri = (owner: string, collection: string): string =>
  `private-repo://collections/${enc(owner)}/${enc(collection)}`;
