import { join, resolve } from "node:path";
import type { SearchIndex } from "@quiver/search";
import { type CollectionRef, GROUP_PREFIX } from "./names.js";
import { openPostgresRegistry, openSqliteRegistry, type RegistrySql } from "./registry.js";

/** Where a repository's indexes live: SQLite files in the folder (default), or a PostgreSQL database. */
export interface RepositoryDatabase {
  /** PostgreSQL URL of the indexes (the plugin's `databaseUrl`, `postgres://...`; never printed); omit for SQLite files. */
  readonly databaseUrl?: string | undefined;
  /** Its schema (the plugin's `databaseSchema`, default `quiver_search`). */
  readonly databaseSchema?: string | undefined;
}

/** A repository: its folder (the plugin's `indexPath`, created when missing) and where its indexes live. */
export type RepositoryLocation = RepositoryDatabase & { readonly indexPath: string };

/** A collection registered in a repository. */
export type CollectionRow = CollectionRef & { readonly id: number };

/** One audit-log entry. */
export interface AuditEntry {
  readonly id: number;
  /** ISO timestamp. */
  readonly at: string;
  /** Who acted; null for an anonymous call. */
  readonly principal: string | null;
  /** What was attempted: `search`, `list`, `add`, `share`, `unshare`. */
  readonly action: string;
  /** The collection (as `owner/name`) or references involved. */
  readonly target: string | null;
  /** `denied` for a refused access; `ok` for a granted change. */
  readonly outcome: "denied" | "ok";
  readonly detail: string | null;
  /** The OAuth client the caller's token was issued to; null for static tokens, the CLI and admin scripts. */
  readonly clientId: string | null;
}

/** What an audit entry is written with (the client id is optional). */
export type AuditInput = Omit<AuditEntry, "id" | "at" | "clientId"> & {
  readonly clientId?: string | null | undefined;
};

/**
 * A collection a caller may read: how they name it (`ref`: `name` when it is theirs, `owner/name` otherwise),
 * and the grantee that gives access (`via`: the caller, or one of its groups).
 */
export type Readable = Awaited<ReturnType<Repository["readable"]>>[number];

const now = () => new Date().toISOString();
const COLLECTION = "CAST(id AS integer) AS id, owner, name";

/**
 * A repository: its registry (collections, the sharing ACL and the audit log) and one search index per
 * collection. Without a database, a folder: `repo.db` and the index files under `collections/`, so that no
 * statistic of one collection (document frequencies, lengths) ever influences the ranking or counts of
 * another. With a database, the registry is in PostgreSQL tables (every replica sees the same collections
 * and shares) and each collection's index is a PostgreSQL index named `private-repo:<owner>/<name>` whose
 * rows belong to the owner: row-level security shows them only to the owner and its grantees.
 */
export class Repository {
  readonly path: string;
  private readonly sql: RegistrySql;
  /** With a database: the database of the collections' indexes. */
  private readonly database: { readonly databaseUrl: string; readonly schema?: string } | undefined;
  private readonly indexes = new Map<string, Promise<SearchIndex>>();
  private closed = false;

  constructor(path: string, { databaseUrl, databaseSchema: schema }: RepositoryDatabase = {}) {
    this.path = resolve(path);
    this.database = databaseUrl ? { databaseUrl, ...(schema ? { schema } : {}) } : undefined;
    this.sql = databaseUrl ? openPostgresRegistry(databaseUrl, schema) : openSqliteRegistry(this.path);
  }

  /**
   * The collections `principal` may read: their own, then those shared with them or with one of
   * `groups`, by owner and name; each once, with the grantee that gives access.
   */
  async readable(principal: string, groups: ReadonlyArray<string> = []) {
    const { tables: t, bytewise: b } = this.sql;
    const grantees = [principal, ...groups.map((g) => `${GROUP_PREFIX}${g}`)];
    // Own collections (no share joined: read as the owner), then those shared with a grantee; a collection
    // shared with several comes first through the principal's own share, then in grantee order.
    const rows = await this.sql.rows<CollectionRow & { via: string }>(
      `SELECT CAST(c.id AS integer) AS id, c.owner, c.name, COALESCE(s.grantee, c.owner) AS via
       FROM ${t.collections} c LEFT JOIN ${t.shares} s ON s.collection = c.id AND c.owner <> ?
       AND s.grantee IN (${grantees.map(() => "?").join(", ")}) WHERE c.owner = ? OR s.grantee IS NOT NULL
       ORDER BY c.owner <> ?, c.owner${b}, c.name${b}, s.grantee <> ?, s.grantee${b}`,
      [principal, ...grantees, principal, principal, principal],
    );
    const seen = new Set<number>();
    return rows
      .filter((c) => !seen.has(c.id) && seen.add(c.id))
      .map((c) =>
        c.owner === principal
          ? { ...c, ref: c.name, access: "owner" as const }
          : { ...c, ref: `${c.owner}/${c.name}`, access: "shared" as const },
      );
  }

  /** Every collection of every owner (for the resource watcher, which tells only their readers). */
  async all(): Promise<CollectionRow[]> {
    return this.sql.rows<CollectionRow>(`SELECT ${COLLECTION} FROM ${this.sql.tables.collections}`, []);
  }

  /** A collection by owner and name, or undefined. */
  async find(owner: string, name: string): Promise<CollectionRow | undefined> {
    const sql = `SELECT ${COLLECTION} FROM ${this.sql.tables.collections} WHERE owner = ? AND name = ?`;
    return (await this.sql.rows<CollectionRow>(sql, [owner, name]))[0];
  }

  /** Registers a collection (idempotent) and returns it. */
  async ensure(owner: string, name: string): Promise<CollectionRow> {
    const sql = `INSERT INTO ${this.sql.tables.collections} (owner, name, created_at) VALUES (?, ?, ?) ON CONFLICT (owner, name) DO NOTHING`;
    await this.sql.rows(sql, [owner, name, now()]);
    return (await this.find(owner, name))!;
  }

  /** Who a collection is shared with. */
  async grantees(collection: number): Promise<string[]> {
    const sql = `SELECT grantee FROM ${this.sql.tables.shares} WHERE collection = ? ORDER BY grantee${this.sql.bytewise}`;
    return (await this.sql.rows<{ grantee: string }>(sql, [collection])).map((r) => r.grantee);
  }

  /**
   * Shares a collection with `grantee` (idempotent) or withdraws the share: in the ACL and, with a database,
   * in PostgreSQL's grant on the collection's index. Resolves to whether the ACL changed.
   */
  async setShare(collection: CollectionRow, grantee: string, add: boolean): Promise<boolean> {
    const stored = this.stored(collection);
    if (stored) {
      const { shareSearchIndex, unshareSearchIndex } = await import("@quiver/search");
      await (add ? shareSearchIndex : unshareSearchIndex)({ ...stored, grantee });
    }
    const t = this.sql.tables.shares;
    const sql = add
      ? `INSERT INTO ${t} (collection, grantee, granted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING grantee`
      : `DELETE FROM ${t} WHERE collection = ? AND grantee = ? RETURNING grantee`;
    const params = add ? [collection.id, grantee, now()] : [collection.id, grantee];
    return (await this.sql.rows(sql, params)).length > 0;
  }

  /** Appends to the audit log. */
  async audit({ principal, action, target, outcome, detail, clientId = null }: AuditInput): Promise<void> {
    const sql = `INSERT INTO ${this.sql.tables.audit} (at, principal, action, target, outcome, detail, client_id) VALUES (?, ?, ?, ?, ?, ?, ?)`;
    await this.sql.rows(sql, [now(), principal, action, target, outcome, detail, clientId]);
  }

  /** The audit log, oldest first (the last `limit` entries). */
  async auditLog(limit = 1_000): Promise<AuditEntry[]> {
    const columns = `CAST(id AS integer) AS id, at, principal, action, target, outcome, detail, client_id AS "clientId"`;
    const sql = `SELECT ${columns} FROM (SELECT * FROM ${this.sql.tables.audit} ORDER BY id DESC LIMIT ?) a ORDER BY id`;
    return this.sql.rows<AuditEntry>(sql, [limit]);
  }

  /** Where @quiver/search keeps a collection's index in the database; undefined without one (a file). */
  private stored({ owner, name }: CollectionRow) {
    return this.database && { ...this.database, name: `private-repo:${owner}/${name}`, principal: owner };
  }

  /**
   * The search index of one collection (opened once, created when missing), read by `reader` (default its
   * owner). With a database, a reader other than the owner reads through the database's grant: without one it
   * sees an empty index, whatever this repository's ACL says.
   */
  index(collection: CollectionRow, reader: string = collection.owner): Promise<SearchIndex> {
    if (this.closed) return Promise.reject(new Error("The repository is closed."));
    const stored = this.stored(collection);
    const key = stored ? `${collection.id} ${reader}` : String(collection.id);
    const open = this.indexes.get(key);
    if (open) return open;
    // @quiver/search (and with a database, the PostgreSQL driver) is loaded with the first collection opened.
    const path = join(this.path, "collections", `${collection.id}.sqlite`);
    const index = import("@quiver/search").then(({ openSearchIndex }) =>
      openSearchIndex(stored ? { ...stored, reader } : { path }),
    );
    index.catch(() => this.indexes.delete(key));
    this.indexes.set(key, index);
    return index;
  }

  /** Closes every index and the registry. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Closed: no index is opened again, none is taken from the map again.
    await Promise.all([...this.indexes.values()].map(async (p) => (await p.catch(() => undefined))?.close()));
    await this.sql.close();
  }
}

/** Runs `work` on `repository` when given (left open), else on the one at `indexPath`, opened and then closed. */
export const withRepository = async <T>(
  options: RepositoryLocation & { readonly repository?: Repository | undefined },
  work: (repo: Repository) => Promise<T>,
): Promise<T> => {
  if (options.repository) return work(options.repository);
  const repo = new Repository(options.indexPath, options);
  return work(repo).finally(() => repo.close());
};
