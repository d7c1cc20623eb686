import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Completer, fail, type PluginResourceTemplate, type ResourceWatcher } from "@quiver/core";
import type { PrivateRepoConfig, RepoResources } from "./config.js";
import { readableCollection, readableNames, readingIndexes } from "./internal/access.js";

type Template = PluginResourceTemplate<PrivateRepoConfig, RepoResources>;
type Watcher = ResourceWatcher<PrivateRepoConfig, RepoResources>;

// The resource URIs: a document of a collection by owner, collection and id, and a collection's list. Every
// variable is percent-encoded whole (an id such as `notes/vitamin-d.md` holds `/`), so each is one URI
// segment that the template's `{name}` matches and decodes.
const enc = encodeURIComponent;

/** Completions of `{owner}` or `{collection}` from what the caller may read (their own first), nothing else. */
const completeFrom =
  (key: "owner" | "name"): Completer<PrivateRepoConfig, RepoResources> =>
  async (value, ctx) =>
    [...new Set((await readableNames(ctx)).map((c) => c[key]))].filter((v) => v.startsWith(value));
const complete: Template["complete"] = { owner: completeFrom("owner"), collection: completeFrom("name") };

/**
 * A document whole: its original text exactly as `quiver private-repo add` added it (`text/markdown` for a
 * Markdown note, else `text/plain`), to its owner and those the collection is shared with; to anyone else
 * there is no such resource (the attempt is in the audit log).
 */
const documentTemplate: Template = {
  uriTemplate: "private-repo://documents/{owner}/{collection}/{id}",
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
  uriTemplate: "private-repo://collections/{owner}/{collection}",
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
        uri: `private-repo://documents/${enc(owner!)}/${enc(collection!)}/${enc(d.id)}`,
      }));
      const text = JSON.stringify({ collection: ref, owner, access, count: documents.length, documents });
      return [{ uri, mimeType: "application/json", text }];
    }),
};

/** The private-repo plugin's resource templates: a document whole, and a collection's list, per principal. */
export const privateRepoResourceTemplates = [documentTemplate, collectionTemplate];

/** How often the watcher looks for collections created since it started (another process's `add`). */
const NEW_COLLECTIONS_MS = 1_000;

/**
 * Tells the catalog when a collection changes, also when another process wrote it (`quiver
 * private-repo add` while the host serves): that collection's list (`resources/updated` reaches only
 * clients subscribed to that URI, and reading it still needs the right to) and the list of resources.
 * Each collection's index is watched (@quiver/search's `watch`); collections created later (and a
 * repository folder created later) are found by polling the repository's registry.
 */
export const watchPrivateRepo: Watcher = (changed, { config, resources }) => {
  const watching = new Map<number, () => void>();
  let stopped = false;
  const sync = async (fresh: boolean) => {
    // A repository folder nobody has created yet is waited for, never created by watching it.
    if (config.databaseUrl === undefined && !existsSync(join(config.indexPath, "repo.db"))) return;
    const repo = resources.repository();
    for (const collection of await repo.all()) {
      if (stopped || watching.has(collection.id)) continue;
      watching.set(collection.id, () => {});
      const uri = `private-repo://collections/${enc(collection.owner)}/${enc(collection.name)}`;
      const tell = () => {
        changed({ uri });
        changed();
      };
      const stop = (await repo.index(collection)).watch(tell);
      if (stopped) stop();
      else watching.set(collection.id, stop);
      // A collection found after the watcher started is new: its list, and the list of resources, changed.
      if (fresh) tell();
    }
  };
  const first = sync(false).catch(() => {});
  // A plain interval, not effect's Schedule: plugins are Promise code and never import effect, and
  // this is a fixed-period look at the registry with nothing to retry or back off.
  const timer = setInterval(() => void first.then(() => sync(true)).catch(() => {}), NEW_COLLECTIONS_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    for (const stop of watching.values()) stop();
    watching.clear();
  };
};
