import { formatRef, ownerProblem } from "./names.js";
import { type AuditEntry, Repository, type RepositoryDatabase } from "./repository.js";

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
  options: { readonly indexPath: string } & RepositoryDatabase,
  f: (repo: Repository) => T | Promise<T>,
): Promise<T> => {
  const repo = new Repository(options.indexPath, options);
  try {
    return await f(repo);
  } finally {
    await repo.close();
  }
};

/** Grants or withdraws a share (in the ACL and, with a database, in PostgreSQL) and logs it. */
const setShare = (options: ShareOptions, add: boolean): Promise<boolean> =>
  withRepo(options, async (repo) => {
    const row = await repo.find(options.owner, options.collection.trim().toLowerCase());
    if (!row) {
      if (!add) return false;
      throw new TypeError(`${options.owner} has no collection "${options.collection}".`);
    }
    await repo.grant(row, options.grantee, add);
    if (add) await repo.share(row.id, options.grantee);
    const changed = add || (await repo.unshare(row.id, options.grantee));
    await repo.audit({
      principal: options.owner,
      action: add ? "share" : "unshare",
      target: `${row.owner}/${row.name}`,
      outcome: "ok",
      detail: `${add ? "with" : "from"} ${options.grantee}`,
    });
    return changed;
  });

/**
 * Shares an owner's collection with another scientist, who can then search it as `owner/name`. Logged.
 *
 * Use it from an admin script; it takes effect on the next call.
 *
 * @example
 * await shareCollection({ indexPath: ".quiver/private-repo", owner: "alice", collection: "papers", grantee: "bob" })
 */
export const shareCollection = async (options: ShareOptions): Promise<void> => {
  const issue = ownerProblem(options.grantee);
  if (issue) throw new TypeError(issue.replace("owner", "grantee"));
  await setShare(options, true);
};

/**
 * Withdraws a share; resolves to whether there was one. Logged.
 *
 * @example
 * await unshareCollection({ indexPath: ".quiver/private-repo", owner: "alice", collection: "papers", grantee: "bob" })
 */
export const unshareCollection = (options: ShareOptions): Promise<boolean> => setShare(options, false);

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
  options: { readonly indexPath: string; readonly principal: string } & RepositoryDatabase,
): Promise<CollectionSummary[]> =>
  withRepo(options, async (repo) =>
    Promise.all(
      (await repo.readable(options.principal)).map(async (c) => ({
        collection: formatRef(c, options.principal),
        owner: c.owner,
        name: c.name,
        access: c.access,
        documents: await (await repo.index(c, options.principal)).count(),
      })),
    ),
  );

/**
 * The audit log: denied access attempts (with who, what and why) and granted changes (adds, shares).
 *
 * @example
 * const denied = (await readAuditLog({ indexPath })).filter((e) => e.outcome === "denied")
 */
export const readAuditLog = (
  options: { readonly indexPath: string; readonly limit?: number } & RepositoryDatabase,
): Promise<AuditEntry[]> => withRepo(options, (repo) => repo.auditLog(options.limit));
