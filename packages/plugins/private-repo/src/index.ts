import { definePlugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { addCommand } from "./commands/add.js";
import { repoConfigSchema } from "./config.js";
import { privateRepoDemo } from "./demo.js";
import { privateRepoResourceTemplates, watchPrivateRepo } from "./resources.js";
import { privateRepoAddFolder } from "./tools/add-folder.js";
import { privateRepoListCollections } from "./tools/list-collections.js";
import { privateRepoSearch } from "./tools/search.js";

export { type PrivateRepoConfig, type RepoResources, repoConfigSchema } from "./config.js";
export { formatCitation } from "./internal/citation.js";
export type { AuditEntry, RepositoryDatabase } from "./internal/repository.js";
// The admin functions: share and unshare a collection, list a scientist's collections, read the audit log.
export * from "./internal/sharing.js";
/** Options of {@link createPrivateRepoPlugin}: defaults for the plugin's settings (environment variables win). */
export type PrivateRepoPluginOptions = PluginOptions<typeof repoConfigSchema>;

/**
 * Creates the private-repository plugin: `private_repo_search` and `private_repo_list_collections` over
 * per-scientist collections, `private_repo_add_folder` (a folder of the caller's import folder into
 * their collection, task-capable), the `quiver private-repo add` command and a demo step. Every call needs
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
export const createPrivateRepoPlugin = (options: PrivateRepoPluginOptions = {}) =>
  definePlugin({
    id: "private-repo",
    version: pkg.version,
    description:
      "Scientists' private document repositories: BM25 search, filters and citations, per-scientist access.",
    config: repoConfigSchema,
    defaults: options,
    tools: [privateRepoSearch, privateRepoListCollections, privateRepoAddFolder],
    // Documents whole and collections' lists, read as the caller (see the README's Resources).
    resourceTemplates: privateRepoResourceTemplates,
    watchResources: watchPrivateRepo,
    // Loaded at the first call, not at import: `quiver list` never opens the repository.
    setup: (ctx) => import("./setup.js").then((m) => m.setupPrivateRepo(ctx)),
    commands: [addCommand],
    demo: privateRepoDemo,
    health: async ({ config, resources }) => {
      const repo = resources.repository();
      if (!config.databaseUrl) return { ok: true, message: `Repository at ${repo.path} is readable.` };
      const fix = "Check that PostgreSQL at DATABASE_URL is running and accepts the login.";
      return repo.find("", "").then(
        () => ({ ok: true, message: "Repository in PostgreSQL (DATABASE_URL) is reachable." }),
        (error: Error) => ({ ok: false, message: error.message, fix }),
      );
    },
  });

/** The plugin with default settings; the host imports this. */
export default createPrivateRepoPlugin();
