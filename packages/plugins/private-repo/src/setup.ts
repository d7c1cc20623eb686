import { reveal, type SetupContext } from "@quiver/core";
import type { PrivateRepoConfig } from "./config.js";
import { Repository } from "./internal/repository.js";

/**
 * Opens what the private-repo tools, command and health check share: `repository()`, the repository folder
 * (`indexPath`) of this registration, opened (and created when missing) at the first use, so a registration
 * that is never called writes nothing, and closed with every collection index it opened when the catalog
 * closes. With `databaseUrl`, the collections' indexes are in PostgreSQL.
 */
export const setupPrivateRepo = ({ config, onClose }: SetupContext<PrivateRepoConfig>) => {
  let repo: Repository | undefined;
  onClose(async () => {
    const open = repo;
    repo = undefined;
    await open?.close();
  });
  return {
    repository: () =>
      (repo ??= new Repository(config.indexPath, {
        // The one plain read of the secret: the PostgreSQL driver takes the URL, not an HTTP request.
        databaseUrl: config.databaseUrl && reveal(config.databaseUrl),
        databaseSchema: config.databaseSchema,
      })),
  };
};
