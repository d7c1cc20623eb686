/**
 * The rag plugin's resource URIs: a document of the embedded index by collection and id, and a collection's
 * list. Both variables are percent-encoded whole (a document id such as `metaheuristicas/guia_docente/evaluacion`
 * holds `/`), so each is one URI segment that the template's `{name}` matches and decodes.
 */

/** A document, as text: its original text exactly as indexed. */
export const DOCUMENT_TEMPLATE = "rag://documents/{collection}/{id}";
/** A collection's documents, as JSON. */
export const COLLECTION_TEMPLATE = "rag://collections/{collection}";

/** The URI of a document of the embedded index. */
export const documentUri = (collection: string, id: string): string =>
  `rag://documents/${encodeURIComponent(collection)}/${encodeURIComponent(id)}`;

/** The URI of a collection's list. */
export const collectionUri = (collection: string): string =>
  `rag://collections/${encodeURIComponent(collection)}`;
