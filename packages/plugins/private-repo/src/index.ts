import { definePlugin, type Plugin } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { addCommand } from "./commands/add.js";
import { PRIVATE_REPO_ENV, type PrivateRepoConfig, repoConfigSchema } from "./config.js";
import { privateRepoDemo } from "./demo.js";
import type { RepoResources } from "./setup.js";
import { privateRepoListCollections } from "./tools/list-collections.js";
import { privateRepoSearch } from "./tools/search.js";

export { PRIVATE_REPO_ENV, type PrivateRepoConfig, repoConfigSchema } from "./config.js";
/** @deprecated Renamed {@link PRIVATE_REPO_ENV} (the `<ID>_ENV` name every plugin uses); kept for 0.1 callers. */
export const REPO_ENV = PRIVATE_REPO_ENV;
/** @deprecated Renamed {@link PrivateRepoConfig}; kept for 0.1 callers. */
export type RepoConfig = PrivateRepoConfig;
export { formatCitation } from "./internal/citation.js";
export {
  type AuditEntry,
  type CollectionSummary,
  listCollections,
  type RepositoryDatabase,
  readAuditLog,
  type ShareOptions,
  shareCollection,
  unshareCollection,
} from "./internal/sharing.js";
export type { RepoResources } from "./setup.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;

/** Options of {@link createPrivateRepoPlugin}: defaults for the plugin's settings. */
export interface PrivateRepoPluginOptions {
  /** The repository folder (default `.quiver/private-repo`, or `QUIVER_PRIVATE_REPO`). */
  readonly indexPath?: string;
  /** PostgreSQL URL for the collections' indexes (or `DATABASE_URL`); default SQLite files in `indexPath`. */
  readonly databaseUrl?: string;
  /** PostgreSQL schema of the indexes (or `QUIVER_SEARCH_SCHEMA`; default `quiver_search`). */
  readonly databaseSchema?: string;
}

/**
 * Creates the private-repository plugin: `private_repo_search` and `private_repo_list_collections` over
 * per-scientist collections, the `quiver private-repo add` command and a demo step. Every call needs
 * the caller's principal (from the host's token mapping); a scientist sees only their own collections
 * and those shared with them.
 *
 * Use the default export in a host; call this to bake in the repository folder.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createPrivateRepoPlugin({ indexPath: "/data/repo" }))
 * await catalog.call("private_repo_search", { search_terms: "CRISPR off-target" }, { session: { principal: "alice" } })
 */
export const createPrivateRepoPlugin = (
  options: PrivateRepoPluginOptions = {},
): Plugin<PrivateRepoConfig, RepoResources> =>
  definePlugin<PrivateRepoConfig, RepoResources>({
    specificationVersion: "v1",
    id: "private-repo",
    version: VERSION,
    description:
      "Scientists' private document repositories: BM25 search with filters and citations, per-scientist access.",
    config: repoConfigSchema,
    defaults: { ...options },
    env: PRIVATE_REPO_ENV,
    tools: [privateRepoSearch, privateRepoListCollections],
    // Loaded at the first call, not at import: `quiver list` never opens the repository.
    setup: (ctx) => import("./setup.js").then((m) => m.setupPrivateRepo(ctx)),
    commands: [addCommand],
    demo: privateRepoDemo,
    health: async ({ config, resources }) => {
      const repo = resources.repository();
      if (!config.databaseUrl) return { ok: true, message: `Repository at ${repo.path} is readable.` };
      try {
        await repo.find("", "");
        return { ok: true, message: "Repository in PostgreSQL (DATABASE_URL) is reachable." };
      } catch (error) {
        return {
          ok: false,
          message: (error as Error).message,
          fix: "Check that PostgreSQL at DATABASE_URL is running and accepts the login.",
        };
      }
    },
  });

/** The plugin with default settings; the host imports this. */
export default createPrivateRepoPlugin();
