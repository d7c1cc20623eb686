import { RepositoryPool } from "./repository.js";

/** What the tools of one plugin instance share: the open repositories. */
export interface RepoDeps {
  readonly pool: RepositoryPool;
}

/** Creates the shared state of one plugin instance. */
export const createDeps = (): RepoDeps => ({ pool: new RepositoryPool() });
