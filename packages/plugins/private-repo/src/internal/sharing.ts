import { formatRef, ownerProblem } from "./names.js";
import { type AuditEntry, type IndexDatabase, Repository } from "./repository.js";

/** Where a repository's indexes live: SQLite files in the folder (default), or a PostgreSQL database. */
export interface RepositoryDatabase {
  /** PostgreSQL URL of the indexes (the plugin's `databaseUrl`); omit for SQLite files. */
  readonly databaseUrl?: string;
  /** Its schema (the plugin's `databaseSchema`, default `quiver_search`). */
  readonly databaseSchema?: string;
}

/** The index database of some options, if any. */
export const databaseOf = (options: RepositoryDatabase): IndexDatabase | undefined =>
  options.databaseUrl
    ? {
        databaseUrl: options.databaseUrl,
        ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
      }
    : undefined;

/**
 * Who shares what with whom. With `databaseUrl`, the grant is also written to PostgreSQL, where row-level
 * security checks it on every row the grantee reads.
 */
export interface ShareOptions extends RepositoryDatabase {
  /** The repository folder (the plugin's `indexPath`). */
  readonly indexPath: string;
  /** The collection's owner. */
  readonly owner: string;
  /** The owner's collection name. */
  readonly collection: string;
  /** The scientist (principal) to share it with. */
  readonly grantee: string;
}

const withRepo = async <T>(
  indexPath: string,
  f: (repo: Repository) => T | Promise<T>,
  database?: RepositoryDatabase,
): Promise<T> => {
  const repo = new Repository(indexPath, database && databaseOf(database));
  try {
    return await f(repo);
  } finally {
    await repo.close();
  }
};

/**
 * Shares an owner's collection with another scientist, who can then search it as `owner/name`. Logged.
 *
 * Use it from an admin script; it takes effect on the next call.
 *
 * @example
 * await shareCollection({ indexPath: ".quiver/private-repo", owner: "alice", collection: "papers", grantee: "bob" })
 */
export const shareCollection = (options: ShareOptions): Promise<void> =>
  withRepo(
    options.indexPath,
    async (repo) => {
      const issue = ownerProblem(options.grantee);
      if (issue) throw new TypeError(issue.replace("owner", "grantee"));
      const row = await repo.find(options.owner, options.collection.trim().toLowerCase());
      if (!row) throw new TypeError(`${options.owner} has no collection "${options.collection}".`);
      await repo.grant(row, options.grantee, true);
      await repo.share(row.id, options.grantee);
      await repo.audit({
        principal: options.owner,
        action: "share",
        target: `${row.owner}/${row.name}`,
        outcome: "ok",
        detail: `with ${options.grantee}`,
      });
    },
    options,
  );

/**
 * Withdraws a share; resolves to whether there was one. Logged.
 *
 * @example
 * await unshareCollection({ indexPath: ".quiver/private-repo", owner: "alice", collection: "papers", grantee: "bob" })
 */
export const unshareCollection = (options: ShareOptions): Promise<boolean> =>
  withRepo(
    options.indexPath,
    async (repo) => {
      const row = await repo.find(options.owner, options.collection.trim().toLowerCase());
      if (!row) return false;
      await repo.grant(row, options.grantee, false);
      const removed = await repo.unshare(row.id, options.grantee);
      await repo.audit({
        principal: options.owner,
        action: "unshare",
        target: `${row.owner}/${row.name}`,
        outcome: "ok",
        detail: `from ${options.grantee}`,
      });
      return removed;
    },
    options,
  );

/** One collection as a scientist sees it. */
export interface CollectionSummary {
  /** How the scientist names it: `name` (own) or `owner/name` (shared with them). */
  readonly collection: string;
  readonly owner: string;
  readonly name: string;
  readonly access: "owner" | "shared";
  readonly documents: number;
}

/**
 * The collections a scientist can read (their own, then those shared with them), with document counts.
 *
 * @example
 * for (const c of await listCollections({ indexPath: ".quiver/private-repo", principal: "alice" })) console.log(c.collection, c.documents)
 */
export const listCollections = (
  options: {
    readonly indexPath: string;
    readonly principal: string;
  } & RepositoryDatabase,
): Promise<CollectionSummary[]> =>
  withRepo(
    options.indexPath,
    async (repo) =>
      Promise.all(
        (await repo.readable(options.principal)).map(async (c) => ({
          collection: formatRef(c, options.principal),
          owner: c.owner,
          name: c.name,
          access: c.access,
          documents: await (await repo.index(c, options.principal)).count(),
        })),
      ),
    options,
  );

/**
 * The audit log: denied access attempts (with who, what and why) and granted changes (adds, shares).
 *
 * @example
 * const denied = (await readAuditLog({ indexPath })).filter((e) => e.outcome === "denied")
 */
export const readAuditLog = (
  options: {
    readonly indexPath: string;
    readonly limit?: number;
  } & RepositoryDatabase,
): Promise<AuditEntry[]> => withRepo(options.indexPath, (repo) => repo.auditLog(options.limit), options);

export type { AuditEntry };
