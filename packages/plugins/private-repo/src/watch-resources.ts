import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ResourceWatcher } from "@quiver/core";
import type { PrivateRepoConfig } from "./config.js";
import { collectionUri } from "./internal/document-uris.js";
import type { RepoResources } from "./setup.js";

/** How often the watcher looks for collections created since it started (another process's `add`). */
const NEW_COLLECTIONS_MS = 1_000;

/**
 * Tells the catalog when a collection changes, also when another process wrote it (`quiver
 * private-repo add` while the host serves): that collection's list (`resources/updated` reaches only
 * clients subscribed to that URI, and reading it still needs the right to) and the list of resources.
 * Each collection's index is watched (@quiver/search's `watch`); collections created later (and a
 * repository folder created later) are found by polling the repository's registry.
 */
export const watchPrivateRepo: ResourceWatcher<PrivateRepoConfig, RepoResources> = (
  changed,
  { config, resources },
) => {
  // A repository folder nobody has created yet is waited for, never created by watching it.
  const exists = () => config.databaseUrl !== undefined || existsSync(join(config.indexPath, "repo.db"));
  const watching = new Map<number, () => void>();
  let stopped = false;
  const sync = async () => {
    if (!exists()) return;
    const repo = resources.repository();
    for (const collection of await repo.all()) {
      if (stopped || watching.has(collection.id)) continue;
      watching.set(collection.id, () => {});
      const index = await repo.index(collection);
      const uri = collectionUri(collection.owner, collection.name);
      const stop = index.watch(() => {
        changed({ uri });
        changed();
      });
      if (stopped) stop();
      else watching.set(collection.id, stop);
      // A collection found after the watcher started is new: its list, and the list of resources, changed.
      if (started) {
        changed({ uri });
        changed();
      }
    }
  };
  let started = false;
  const first = sync()
    .catch(() => {})
    .then(() => {
      started = true;
    });
  // A plain interval, not effect's Schedule: plugins are Promise code and never import effect, and
  // this is a fixed-period look at the registry with nothing to retry or back off.
  const timer = setInterval(() => void first.then(sync).catch(() => {}), NEW_COLLECTIONS_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    for (const stop of watching.values()) stop();
    watching.clear();
  };
};
