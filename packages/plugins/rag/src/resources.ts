import { fail, type PluginResourceTemplate, type ResourceWatcher, type SlotContext } from "@quiver/core";
import { backendOf, type RagConfig } from "./config.js";
import type { RagResources } from "./internal/backends/embedded-backend.js";

type Ctx = SlotContext<RagConfig, RagResources>;

/** The embedded index, or `unavailable` on the HTTP backend (a RAG service answers passages, not documents). */
const embedded = async (ctx: Ctx) => {
  if (backendOf(ctx.config) === "http")
    throw fail.unavailable("Documents are read from the embedded index; this host searches a RAG service.", {
      retryable: false,
      suggestion: "Read the passages rag_search returns, or ask the operator to serve an embedded index.",
    });
  return ctx.resources.embedded();
};

/**
 * The URI of a document of the embedded index. Both variables are percent-encoded whole (a document id
 * such as `metaheuristicas/guia_docente/evaluacion` holds `/`), so each is one URI segment that the
 * template's `{name}` matches and decodes.
 */
export const documentUri = (collection: string, id: string): string =>
  `rag://documents/${encodeURIComponent(collection)}/${encodeURIComponent(id)}`;

/** Completes a collection name from the embedded index's collections. */
const complete = {
  collection: async (value: string, ctx: Ctx) =>
    (await (await embedded(ctx)).collections()).map((c) => c.name).filter((n) => n.startsWith(value)),
};

/**
 * A document of the embedded index, whole: its original text exactly as `quiver rag index` added it
 * (`text/markdown` for a Markdown file, else `text/plain`). A document indexed before originals were kept
 * is `unavailable`, saying so: its text is never rebuilt from the overlapping chunks.
 */
const documentTemplate: PluginResourceTemplate<RagConfig, RagResources> = {
  uriTemplate: "rag://documents/{collection}/{id}",
  name: "document",
  title: "Course material document",
  description:
    "A whole document of the course material by collection (default: default) and id (the doc_id of a rag_search result), as it was indexed.",
  mimeType: "text/plain",
  complete,
  read: async (uri, { collection, id }, ctx) => {
    const { documentMimeType } = await import("@quiver/search");
    const doc = await (await embedded(ctx)).document(collection!, id!);
    if (!doc) return [];
    if (doc.text === undefined)
      throw fail.unavailable(`${uri}: ${doc.textMissing}`, {
        retryable: false,
        suggestion: "Ask the operator to run `quiver rag index` on its folder again.",
      });
    return [{ uri, mimeType: documentMimeType(doc), text: doc.text }];
  },
};

/** A collection's documents as JSON: id, title, date, sizes and each one's URI; not their texts. */
const collectionTemplate: PluginResourceTemplate<RagConfig, RagResources> = {
  uriTemplate: "rag://collections/{collection}",
  name: "collection",
  title: "Course material collection",
  description:
    "The documents of a collection of the course-material index (default: default): id, title, date, size and the URI that reads each one whole.",
  mimeType: "application/json",
  complete,
  read: async (uri, { collection }, ctx) => {
    const documents = await (await embedded(ctx)).documents(collection!);
    if (documents.length === 0) return [];
    const listed = documents.map((d) => ({ ...d, uri: documentUri(collection!, d.id) }));
    const text = JSON.stringify({ collection, count: listed.length, documents: listed });
    return [{ uri, mimeType: "application/json", text }];
  },
};

/** The rag plugin's resource templates: a document of the embedded index, and a collection's list. */
export const ragResourceTemplates = [documentTemplate, collectionTemplate];

/**
 * Tells the catalog when the embedded index changes, also when another process wrote it (`quiver rag
 * index` while the host serves): each written collection's list (every collection's when the index
 * cannot say which) and the list of documents. Nothing to watch on the HTTP backend.
 */
export const watchRagResources: ResourceWatcher<RagConfig, RagResources> = async (changed, ctx) => {
  if (backendOf(ctx.config) === "http") return () => {};
  const index = await ctx.resources.embedded();
  return index.watch(async ({ collection }) => {
    const names = collection ? [collection] : (await index.collections().catch(() => [])).map((c) => c.name);
    for (const name of names) changed({ uri: `rag://collections/${encodeURIComponent(name)}` });
    changed();
  });
};
