import { ownerProblem } from "./names.js";
import { type RepositoryLocation, withRepository } from "./repository.js";

/**
 * Who shares what with whom. With `databaseUrl`, the grant is also written to PostgreSQL, where row-level
 * security checks it on every row the grantee reads.
 */
export interface ShareOptions extends RepositoryLocation {
  /** The collection's owner. */
  readonly owner: string;
  /** The owner's collection name. */
  readonly collection: string;
  /** The scientist (principal) to share it with. */
  readonly grantee: string;
}

/** Grants or withdraws a share (in the ACL and, with a database, in PostgreSQL) and logs it. */
const setShare = ({ owner, collection, grantee, ...options }: ShareOptions, add: boolean): Promise<boolean> =>
  withRepository(options, async (repo) => {
    const row = await repo.find(owner, collection.trim().toLowerCase());
    if (!row && !add) return false;
    if (!row) throw new TypeError(`${owner} has no collection "${collection}".`);
    const changed = await repo.setShare(row, grantee, add);
    const [action, detail] = add ? ["share", `with ${grantee}`] : ["unshare", `from ${grantee}`];
    await repo.audit({ principal: owner, action, target: `${row.owner}/${row.name}`, outcome: "ok", detail });
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

/**
 * The collections a scientist can read (their own, then those shared with them), with document counts.
 *
 * @example
 * for (const c of await listCollections({ indexPath: ".quiver/private-repo", principal: "alice" })) console.log(c.collection, c.documents)
 */
export const listCollections = (options: RepositoryLocation & { readonly principal: string }) =>
  withRepository(options, async (repo) =>
    Promise.all(
      (await repo.readable(options.principal)).map(async (c) => ({
        collection: c.ref,
        owner: c.owner,
        name: c.name,
        access: c.access,
        documents: await (await repo.index(c, options.principal)).count(),
      })),
    ),
  );

/**
 * One collection as a scientist sees it: `collection` is how they name it, `name` (own) or `owner/name`
 * (shared with them), with its owner, name, access (`owner` or `shared`) and document count.
 */
export type CollectionSummary = Awaited<ReturnType<typeof listCollections>>[number];

/**
 * The audit log: denied access attempts (with who, what and why) and granted changes (adds, shares).
 *
 * @example
 * const denied = (await readAuditLog({ indexPath })).filter((e) => e.outcome === "denied")
 */
export const readAuditLog = (options: RepositoryLocation & { readonly limit?: number }) =>
  withRepository(options, (repo) => repo.auditLog(options.limit));
