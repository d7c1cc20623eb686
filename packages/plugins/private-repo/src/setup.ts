import { type PluginSetup, reveal } from "@quiver/core";
import type { PrivateRepoConfig } from "./config.js";
import { Repository } from "./internal/repository.js";

/** What the private-repo tools, command and health check share: the repository, opened once. */
export interface RepoResources {
  /**
   * The repository folder (`indexPath`) of this registration, opened (and created when missing) at the
   * first use, so a registration that is never called writes nothing; closed with the catalog. With
   * `databaseUrl`, the collections' indexes are in PostgreSQL.
   */
  readonly repository: () => Repository;
}

/** Opens the repository lazily and closes it, with every collection index it opened, at the end. */
export const setupPrivateRepo: PluginSetup<PrivateRepoConfig, RepoResources> = ({ config, onClose }) => {
  let repo: Repository | undefined;
  onClose(async () => {
    const open = repo;
    repo = undefined;
    await open?.close();
  });
  return {
    repository: () => {
      repo ??= new Repository(config.indexPath, {
        // The one plain read of the secret: the PostgreSQL driver takes the URL, not an HTTP request.
        databaseUrl: config.databaseUrl && reveal(config.databaseUrl),
        databaseSchema: config.databaseSchema,
      });
      return repo;
    },
  };
};
