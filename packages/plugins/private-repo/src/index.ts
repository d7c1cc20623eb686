import { definePlugin, type Plugin } from "@quiver/core";
import { z } from "zod";
import { type RepoConfig, repoConfigSchema } from "./internal/config.js";
import { createDeps } from "./internal/deps.js";
import { makeListCollections } from "./tools/list-collections.js";
import { makeSearchRepository } from "./tools/search-repository.js";
import { VERSION } from "./version.js";

export { loadDocuments } from "@quiver/search";
export {
  type AddDocumentsOptions,
  type AddDocumentsResult,
  type AddProgress,
  addDocuments,
} from "./add-documents.js";
export { buildDemoRepository } from "./demo.js";
export { formatCitation } from "./internal/citation.js";
export type { RepoConfig } from "./internal/config.js";
export {
  type AuditEntry,
  type CollectionSummary,
  listCollections,
  readAuditLog,
  type ShareOptions,
  shareCollection,
  unshareCollection,
} from "./sharing.js";
export { VERSION } from "./version.js";

/** Options of {@link createPrivateRepoPlugin}: defaults for the plugin's settings. */
export interface PrivateRepoPluginOptions {
  /** The repository folder (default `.quiver/private-repo`, or `QUIVER_PRIVATE_REPO`). */
  readonly indexPath?: string;
}

/**
 * Creates the private-repository plugin: `search_repository` and `list_repository_collections` over
 * per-scientist collections. Every call needs the caller's principal (from the host's token mapping);
 * a scientist sees only their own collections and those shared with them.
 *
 * Use the default export in a host; call this to bake in the repository folder.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createPrivateRepoPlugin({ indexPath: "/data/repo" }))
 * await catalog.call("search_repository", { search_terms: "CRISPR off-target" }, { session: { principal: "alice" } })
 */
export const createPrivateRepoPlugin = (options: PrivateRepoPluginOptions = {}): Plugin<RepoConfig> => {
  const deps = createDeps();
  const defaults = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return definePlugin<RepoConfig>({
    specificationVersion: "v1",
    id: "private-repo",
    version: VERSION,
    description:
      "Scientists' private document repositories: BM25 search with filters and citations, per-scientist access.",
    // Options are defaults: settings given at registration and QUIVER_PRIVATE_REPO win over them.
    config: z.preprocess((raw) => ({ ...defaults, ...(raw as object) }), repoConfigSchema),
    env: { indexPath: "QUIVER_PRIVATE_REPO" },
    tools: [makeSearchRepository(deps), makeListCollections(deps)],
    health: async ({ config }) => {
      const repo = deps.pool.get(config.indexPath);
      return { ok: true, message: `Repository at ${repo.path} is readable.` };
    },
    dispose: () => deps.pool.close(),
  });
};

/** The plugin with default settings; the host imports this. */
export default createPrivateRepoPlugin();
