import { fail, type PluginResourceTemplate } from "@quiver/core";
import type { PrivateRepoConfig } from "./config.js";
import { readableCollection, readableNames } from "./internal/access.js";
import { COLLECTION_TEMPLATE, DOCUMENT_TEMPLATE, documentUri } from "./internal/document-uris.js";
import { readingIndexes } from "./internal/errors.js";
import type { RepoResources } from "./setup.js";

type Template = PluginResourceTemplate<PrivateRepoConfig, RepoResources>;

/** Completions of `{owner}` and `{collection}` from what the caller may read (their own first), nothing else. */
const complete: Template["complete"] = {
  owner: async (value, ctx) =>
    [...new Set((await readableNames(ctx)).map((c) => c.owner))].filter((o) => o.startsWith(value)),
  collection: async (value, ctx) =>
    [...new Set((await readableNames(ctx)).map((c) => c.name))].filter((n) => n.startsWith(value)),
};

/**
 * A document whole: its original text exactly as `quiver private-repo add` added it (`text/markdown` for a
 * Markdown note, else `text/plain`), to its owner and those the collection is shared with; to anyone else
 * there is no such resource (the attempt is in the audit log).
 */
const documentTemplate: Template = {
  uriTemplate: DOCUMENT_TEMPLATE,
  name: "document",
  title: "Repository document",
  description:
    "A whole document of a collection you own or that is shared with you, by owner, collection and id (a private_repo_search result's id).",
  mimeType: "text/plain",
  complete,
  read: async (uri, { owner, collection, id }, ctx) =>
    readingIndexes(async () => {
      const open = await readableCollection(ctx, owner!, collection!);
      const doc = await open?.index.document(id!);
      if (!doc) return [];
      if (doc.text === undefined)
        throw fail.unavailable(`${uri}: ${doc.textMissing}`, {
          retryable: false,
          suggestion: "Add the document again with `quiver private-repo add` to read it whole.",
        });
      const { documentMimeType } = await import("@quiver/search");
      return [{ uri, mimeType: documentMimeType(doc), text: doc.text }];
    }),
};

/** A collection's documents as JSON (id, title, date, sizes, each one's URI; not their texts), to its readers only. */
const collectionTemplate: Template = {
  uriTemplate: COLLECTION_TEMPLATE,
  name: "collection",
  title: "Repository collection",
  description:
    "The documents of a collection you own or that is shared with you: id, title, date, size and the URI that reads each one whole.",
  mimeType: "application/json",
  complete,
  read: async (uri, { owner, collection }, ctx) =>
    readingIndexes(async () => {
      const open = await readableCollection(ctx, owner!, collection!);
      if (!open) return [];
      const { listAllDocuments } = await import("@quiver/search");
      const { ref, access } = open.collection;
      const documents = (await listAllDocuments(open.index)).map((d) => ({
        ...d,
        uri: documentUri(owner!, collection!, d.id),
      }));
      const text = JSON.stringify({ collection: ref, owner, access, count: documents.length, documents });
      return [{ uri, mimeType: "application/json", text }];
    }),
};

/** The private-repo plugin's resource templates: a document whole, and a collection's list, per principal. */
export const privateRepoResourceTemplates = [documentTemplate, collectionTemplate];
