import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { SearchIndex } from "@quiver/search";
import { type AuditRow, auditValues, fromAuditRow } from "./audit-row.js";
import { firstPerCollection, granteesOf } from "./grantees.js";
import { PostgresRegistry } from "./pg-registry.js";

/** Where the collections' indexes live when not in SQLite files: a PostgreSQL database and schema. */
export interface IndexDatabase {
  /** `postgres://...`; never printed. */
  readonly databaseUrl: string;
  /** Default `quiver_search`. */
  readonly schema?: string;
}

/** A collection registered in a repository. */
export interface CollectionRow {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
}

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

/** A collection a caller may read, and the grantee that gives access (the caller, or one of its groups). */
export type ReadableRow = CollectionRow & { readonly access: "owner" | "shared"; readonly via: string };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS collections (
  id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (owner, name)
);
CREATE TABLE IF NOT EXISTS shares (
  collection INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  grantee TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (collection, grantee)
);
CREATE INDEX IF NOT EXISTS shares_grantee ON shares (grantee);
CREATE TABLE IF NOT EXISTS audit (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  principal TEXT,
  action TEXT NOT NULL,
  target TEXT,
  outcome TEXT NOT NULL,
  detail TEXT,
  client_id TEXT
);
`;

/**
 * The registry of a repository: collections, the sharing ACL and the audit log. In `repo.db` (SQLite) by default;
 * in PostgreSQL tables with a database, so that every replica sees the same collections and shares.
 */
export interface Registry {
  /**
   * The collections `principal` may read: their own, then those shared with them or with one of
   * `groups`, by owner and name; each once, with the grantee that gives access.
   */
  readable(principal: string, groups?: ReadonlyArray<string>): Promise<ReadableRow[]>;
  /** A collection by owner and name, or undefined. */
  find(owner: string, name: string): Promise<CollectionRow | undefined>;
  /** Registers a collection (idempotent) and returns it. */
  ensure(owner: string, name: string): Promise<CollectionRow>;
  /** Who a collection is shared with. */
  grantees(collection: number): Promise<string[]>;
  /** Shares a collection with a principal (idempotent). */
  share(collection: number, grantee: string): Promise<void>;
  /** Withdraws a share; true when there was one. */
  unshare(collection: number, grantee: string): Promise<boolean>;
  /** Appends to the audit log. */
  audit(entry: AuditInput): Promise<void>;
  /** The audit log, oldest first (the last `limit` entries). */
  auditLog(limit?: number): Promise<AuditEntry[]>;
  close(): Promise<void>;
}

/** The registry in `repo.db`, a SQLite file of the repository folder. */
class SqliteRegistry implements Registry {
  private readonly db: DatabaseSync;

  constructor(path: string) {
    mkdirSync(join(path, "collections"), { recursive: true });
    this.db = new DatabaseSync(join(path, "repo.db"));
    this.db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON");
    this.db.exec(SCHEMA);
    // A repository made before the audit log kept client ids gets the column.
    const columns = this.db.prepare("PRAGMA table_info(audit)").all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === "client_id"))
      this.db.exec("ALTER TABLE audit ADD COLUMN client_id TEXT");
  }

  /** The collections `principal` may read: their own, then those shared with them or their groups. */
  async readable(principal: string, groups: ReadonlyArray<string> = []): Promise<ReadableRow[]> {
    const own = this.db
      .prepare("SELECT id, owner, name FROM collections WHERE owner = ? ORDER BY name")
      .all(principal) as unknown as CollectionRow[];
    const grantees = granteesOf(principal, groups);
    const shared = this.db
      .prepare(
        `SELECT c.id, c.owner, c.name, s.grantee AS via FROM collections c JOIN shares s ON s.collection = c.id WHERE s.grantee IN (${grantees.map(() => "?").join(", ")}) AND c.owner <> ? ORDER BY c.owner, c.name`,
      )
      .all(...grantees, principal) as unknown as Array<CollectionRow & { via: string }>;
    return [
      ...own.map((c) => ({ ...c, access: "owner" as const, via: principal })),
      ...firstPerCollection(shared, grantees).map((c) => ({ ...c, access: "shared" as const })),
    ];
  }

  /** A collection by owner and name, or undefined. */
  async find(owner: string, name: string): Promise<CollectionRow | undefined> {
    return this.db
      .prepare("SELECT id, owner, name FROM collections WHERE owner = ? AND name = ?")
      .get(owner, name) as CollectionRow | undefined;
  }

  /** Registers a collection (idempotent) and returns it. */
  async ensure(owner: string, name: string): Promise<CollectionRow> {
    this.db
      .prepare(
        "INSERT INTO collections (owner, name, created_at) VALUES (?, ?, ?) ON CONFLICT (owner, name) DO NOTHING",
      )
      .run(owner, name, new Date().toISOString());
    return (await this.find(owner, name))!;
  }

  /** Who a collection is shared with. */
  async grantees(collection: number): Promise<string[]> {
    return (
      this.db
        .prepare("SELECT grantee FROM shares WHERE collection = ? ORDER BY grantee")
        .all(collection) as Array<{ grantee: string }>
    ).map((r) => r.grantee);
  }

  /** Shares a collection with a principal (idempotent). */
  async share(collection: number, grantee: string): Promise<void> {
    this.db
      .prepare("INSERT INTO shares (collection, grantee, granted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .run(collection, grantee, new Date().toISOString());
  }

  /** Withdraws a share; true when there was one. */
  async unshare(collection: number, grantee: string): Promise<boolean> {
    return (
      Number(
        this.db.prepare("DELETE FROM shares WHERE collection = ? AND grantee = ?").run(collection, grantee)
          .changes,
      ) > 0
    );
  }

  /** Appends to the audit log. */
  async audit(entry: AuditInput): Promise<void> {
    this.db
      .prepare(
        "INSERT INTO audit (at, principal, action, target, outcome, detail, client_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(...auditValues(entry));
  }

  /** The audit log, oldest first (the last `limit` entries). */
  async auditLog(limit = 1_000): Promise<AuditEntry[]> {
    return (
      this.db
        .prepare("SELECT * FROM (SELECT * FROM audit ORDER BY id DESC LIMIT ?) ORDER BY id")
        .all(limit) as unknown as AuditRow[]
    ).map(fromAuditRow);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/**
 * A repository: its registry (collections, the sharing ACL and the audit log) and one search index per
 * collection. Without a database, a folder: `repo.db` and the index files under `collections/`, so that no statistic of one collection (document
 * frequencies, lengths) ever influences the ranking or counts of another. With a database, the registry is in
 * PostgreSQL tables and each collection's index is a PostgreSQL index named `private-repo:<owner>/<name>` whose
 * rows belong to the owner: row-level security shows them only to the owner and its grantees.
 */
export class Repository {
  readonly path: string;
  /** Collections, shares and the audit log: `repo.db`, or PostgreSQL tables with a database. */
  readonly registry: Registry;
  private readonly indexes = new Map<string, Promise<SearchIndex>>();
  private closed = false;

  constructor(
    path: string,
    private readonly database?: IndexDatabase,
  ) {
    this.path = resolve(path);
    this.registry = database ? new PostgresRegistry(database) : new SqliteRegistry(this.path);
  }

  readable(principal: string, groups?: ReadonlyArray<string>) {
    return this.registry.readable(principal, groups);
  }

  find(owner: string, name: string) {
    return this.registry.find(owner, name);
  }

  ensure(owner: string, name: string) {
    return this.registry.ensure(owner, name);
  }

  grantees(collection: number) {
    return this.registry.grantees(collection);
  }

  share(collection: number, grantee: string) {
    return this.registry.share(collection, grantee);
  }

  unshare(collection: number, grantee: string) {
    return this.registry.unshare(collection, grantee);
  }

  audit(entry: AuditInput) {
    return this.registry.audit(entry);
  }

  auditLog(limit?: number) {
    return this.registry.auditLog(limit);
  }

  /** The PostgreSQL index name of a collection. */
  private static indexName(collection: CollectionRow): string {
    return `private-repo:${collection.owner}/${collection.name}`;
  }

  /**
   * The search index of one collection (opened once, created when missing), read by `reader` (default its
   * owner). With a database, a reader other than the owner reads through the database's grant: without one it
   * sees an empty index, whatever this repository's ACL says.
   */
  index(collection: CollectionRow, reader: string = collection.owner): Promise<SearchIndex> {
    if (this.closed) return Promise.reject(new Error("The repository is closed."));
    const key = this.database ? `${collection.id} ${reader}` : String(collection.id);
    let index = this.indexes.get(key);
    if (!index) {
      // @quiver/search (and with a database, the PostgreSQL driver) is loaded with the first collection opened.
      const { database } = this;
      const path = join(this.path, "collections", `${collection.id}.sqlite`);
      index = import("@quiver/search").then(({ openSearchIndex }) =>
        database
          ? openSearchIndex({
              databaseUrl: database.databaseUrl,
              ...(database.schema ? { schema: database.schema } : {}),
              name: Repository.indexName(collection),
              principal: collection.owner,
              reader,
            })
          : openSearchIndex({ path }),
      );
      index.catch(() => this.indexes.delete(key));
      this.indexes.set(key, index);
    }
    return index;
  }

  /** With a database, grants (or withdraws) `grantee` reading the collection's index there; else nothing. */
  async grant(collection: CollectionRow, grantee: string, add: boolean): Promise<void> {
    const { database } = this;
    if (!database) return;
    const { shareSearchIndex, unshareSearchIndex } = await import("@quiver/search");
    const options = {
      databaseUrl: database.databaseUrl,
      ...(database.schema ? { schema: database.schema } : {}),
      name: Repository.indexName(collection),
      principal: collection.owner,
      grantee,
    };
    await (add ? shareSearchIndex(options) : unshareSearchIndex(options));
  }

  /** Closes every index and the registry. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const all = [...this.indexes.values()];
    this.indexes.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
    await this.registry.close();
  }
}
