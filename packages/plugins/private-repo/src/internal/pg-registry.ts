import { fail } from "@quiver/core";
import type pg from "pg";
import { type AuditRow, auditValues, fromAuditRow } from "./audit-row.js";
import { firstPerCollection, granteesOf } from "./grantees.js";
import type {
  AuditEntry,
  AuditInput,
  CollectionRow,
  IndexDatabase,
  ReadableRow,
  Registry,
} from "./repository.js";

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Whether an error means the database cannot be reached (rather than a bad statement). */
const unreachable = (error: unknown): boolean => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (/^(08|57P|53)/.test(code) || /^E[A-Z]+$/.test(code))) return true;
  return typeof message === "string" && /Connection terminated|timeout/i.test(message);
};

/**
 * The registry in PostgreSQL, beside the collections' indexes (same schema): `repo_collections`, `repo_shares`
 * and `repo_audit`, so that every replica on the database sees the same collections, shares and log. The rows'
 * contents (owners, names, who shares with whom) are the ACL itself; the documents stay in the indexes, under
 * row-level security.
 */
export class PostgresRegistry implements Registry {
  private pool: Promise<pg.Pool> | undefined;
  private readonly s: string;

  constructor(private readonly database: IndexDatabase) {
    this.s = quote(database.schema ?? "quiver_search");
  }

  async readable(principal: string, groups: ReadonlyArray<string> = []): Promise<ReadableRow[]> {
    const own = await this.rows<CollectionRow>(
      `SELECT id::int AS id, owner, name FROM ${this.s}.repo_collections WHERE owner = $1 ORDER BY name COLLATE "C"`,
      [principal],
    );
    const grantees = granteesOf(principal, groups);
    const shared = await this.rows<CollectionRow & { via: string }>(
      `SELECT c.id::int AS id, c.owner, c.name, s.grantee AS via FROM ${this.s}.repo_collections c
       JOIN ${this.s}.repo_shares s ON s.collection = c.id
       WHERE s.grantee = ANY($1::text[]) AND c.owner <> $2 ORDER BY c.owner COLLATE "C", c.name COLLATE "C"`,
      [grantees, principal],
    );
    return [
      ...own.map((c) => ({ ...c, access: "owner" as const, via: principal })),
      ...firstPerCollection(shared, grantees).map((c) => ({ ...c, access: "shared" as const })),
    ];
  }

  async find(owner: string, name: string): Promise<CollectionRow | undefined> {
    return (
      await this.rows<CollectionRow>(
        `SELECT id::int AS id, owner, name FROM ${this.s}.repo_collections WHERE owner = $1 AND name = $2`,
        [owner, name],
      )
    )[0];
  }

  async ensure(owner: string, name: string): Promise<CollectionRow> {
    await this.rows(
      `INSERT INTO ${this.s}.repo_collections (owner, name, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (owner, name) DO NOTHING`,
      [owner, name, new Date().toISOString()],
    );
    return (await this.find(owner, name))!;
  }

  async grantees(collection: number): Promise<string[]> {
    return (
      await this.rows<{ grantee: string }>(
        `SELECT grantee FROM ${this.s}.repo_shares WHERE collection = $1 ORDER BY grantee COLLATE "C"`,
        [collection],
      )
    ).map((r) => r.grantee);
  }

  async share(collection: number, grantee: string): Promise<void> {
    await this.rows(
      `INSERT INTO ${this.s}.repo_shares (collection, grantee, granted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [collection, grantee, new Date().toISOString()],
    );
  }

  async unshare(collection: number, grantee: string): Promise<boolean> {
    const pool = await this.open();
    const result = await this.guard(() =>
      pool.query(`DELETE FROM ${this.s}.repo_shares WHERE collection = $1 AND grantee = $2`, [
        collection,
        grantee,
      ]),
    );
    return (result.rowCount ?? 0) > 0;
  }

  async audit(entry: AuditInput): Promise<void> {
    await this.rows(
      `INSERT INTO ${this.s}.repo_audit (at, principal, action, target, outcome, detail, client_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      auditValues(entry),
    );
  }

  async auditLog(limit = 1_000): Promise<AuditEntry[]> {
    return (
      await this.rows<AuditRow>(
        `SELECT * FROM (SELECT * FROM ${this.s}.repo_audit ORDER BY id DESC LIMIT $1) a ORDER BY id`,
        [limit],
      )
    ).map(fromAuditRow);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await (await pool?.catch(() => undefined))?.end().catch(() => undefined);
  }

  private async rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    const pool = await this.open();
    return (await this.guard(() => pool.query(sql, params))).rows as T[];
  }

  /** Connects (the driver is loaded then) and creates the tables once. */
  private open(): Promise<pg.Pool> {
    this.pool ??= this.guard(async () => {
      const { default: driver } = await import("pg");
      const pool = new driver.Pool({
        connectionString: this.database.databaseUrl,
        max: 4,
        connectionTimeoutMillis: 5_000,
        query_timeout: 35_000,
        idleTimeoutMillis: 10_000,
        allowExitOnIdle: true,
      });
      pool.on("error", () => undefined);
      pool.on("connect", (client) => client.on("error", () => undefined));
      const client = await pool.connect().catch(async (error: unknown) => {
        await pool.end().catch(() => undefined);
        throw error;
      });
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtext('quiver_private_repo_migrate'))");
        await client.query(`
          CREATE SCHEMA IF NOT EXISTS ${this.s};
          CREATE TABLE IF NOT EXISTS ${this.s}.repo_collections (
            id bigserial PRIMARY KEY, owner text NOT NULL, name text NOT NULL, created_at text NOT NULL,
            UNIQUE (owner, name));
          CREATE TABLE IF NOT EXISTS ${this.s}.repo_shares (
            collection bigint NOT NULL REFERENCES ${this.s}.repo_collections (id) ON DELETE CASCADE,
            grantee text NOT NULL, granted_at text NOT NULL, PRIMARY KEY (collection, grantee));
          CREATE INDEX IF NOT EXISTS repo_shares_grantee ON ${this.s}.repo_shares (grantee);
          CREATE TABLE IF NOT EXISTS ${this.s}.repo_audit (
            id bigserial PRIMARY KEY, at text NOT NULL, principal text, action text NOT NULL, target text,
            outcome text NOT NULL, detail text);
          ALTER TABLE ${this.s}.repo_audit ADD COLUMN IF NOT EXISTS client_id text;`);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release(true);
        await pool.end().catch(() => undefined);
        throw error;
      }
      client.release();
      return pool;
    });
    const opening = this.pool;
    opening.catch(() => {
      if (this.pool === opening) this.pool = undefined;
    });
    return opening;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!unreachable(error)) throw error;
      throw fail.unavailable("The repository's database is unavailable; try again shortly.", {
        retryable: true,
        suggestion:
          "Call again in a little while; the operator should check that PostgreSQL (DATABASE_URL) is running.",
      });
    }
  }
}
