import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type pg from "pg";
import { databaseUnavailable } from "./access.js";

/**
 * The statements that create a registry's tables, the same for both databases but for the type of the
 * row ids (`INTEGER`, SQLite's row id; `bigserial` in PostgreSQL) and the name of the grantee index.
 */
const registryTables = ({ collections, shares, audit }: RegistryTables, id: string, index: string) => `
  CREATE TABLE IF NOT EXISTS ${collections} (
    id ${id} PRIMARY KEY, owner text NOT NULL, name text NOT NULL, created_at text NOT NULL, UNIQUE (owner, name));
  CREATE TABLE IF NOT EXISTS ${shares} (
    collection bigint NOT NULL REFERENCES ${collections} (id) ON DELETE CASCADE,
    grantee text NOT NULL, granted_at text NOT NULL, PRIMARY KEY (collection, grantee));
  CREATE INDEX IF NOT EXISTS ${index} ON ${shares} (grantee);
  CREATE TABLE IF NOT EXISTS ${audit} (
    id ${id} PRIMARY KEY, at text NOT NULL, principal text, action text NOT NULL, target text,
    outcome text NOT NULL, detail text, client_id text);`;

/** The registry's tables' names: `p` is PostgreSQL's schema and `repo_`, nothing in SQLite. */
const tableNames = (p = "") => ({ collections: `${p}collections`, shares: `${p}shares`, audit: `${p}audit` });
type RegistryTables = ReturnType<typeof tableNames>;

const POOL_TIMEOUTS = { connectionTimeoutMillis: 5_000, query_timeout: 35_000, idleTimeoutMillis: 10_000 };

/** A registry: SQLite's or PostgreSQL's. */
export type RegistrySql = ReturnType<typeof openSqliteRegistry>;

/**
 * The registry in `repo.db`, a SQLite file of the repository folder (created with the folder): its tables
 * (collections, the sharing ACL and the audit log) and how to query them. PostgreSQL's registry has the same
 * shape ({@link RegistrySql}) and both run the same statements: `rows` runs one with `?` placeholders, `tables`
 * are the names (schema-qualified in PostgreSQL), `bytewise` makes an ORDER BY term sort byte-wise
 * (`COLLATE "C"` in PostgreSQL; SQLite's default).
 */
export const openSqliteRegistry = (path: string) => {
  mkdirSync(join(path, "collections"), { recursive: true });
  const db = new DatabaseSync(join(path, "repo.db"));
  db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON");
  const tables = tableNames();
  db.exec(registryTables(tables, "INTEGER", "shares_grantee"));
  return {
    rows: async <T>(sql: string, params: ReadonlyArray<unknown>) =>
      db.prepare(sql).all(...(params as SQLInputValue[])) as T[],
    tables,
    bytewise: "",
    close: async () => db.close(),
  };
};

/** An unreachable database (a connection error, not a bad statement) as `unavailable` (retryable); any other as it is. */
const guard = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const unreachable =
      (typeof code === "string" && /^(?:08|57P|53|E[A-Z]+$)/.test(code)) ||
      (typeof message === "string" && /Connection terminated|timeout/i.test(message));
    throw unreachable ? databaseUnavailable() : error;
  });

/**
 * Connects (the driver is loaded then) and creates the tables once: the statements of one query run as
 * one transaction, under an advisory lock, so replicas starting together create them once.
 */
const connect = async (url: string, s: string, tables: RegistryTables): Promise<pg.Pool> => {
  const { default: driver } = await import("pg");
  const pool = new driver.Pool({ connectionString: url, max: 4, allowExitOnIdle: true, ...POOL_TIMEOUTS });
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  await pool
    .query(`
      SELECT pg_advisory_xact_lock(hashtext('quiver_private_repo_migrate'));
      CREATE SCHEMA IF NOT EXISTS ${s};${registryTables(tables, "bigserial", "repo_shares_grantee")}`)
    .catch(async (error: unknown) => {
      await pool.end().catch(() => undefined);
      throw error;
    });
  return pool;
};

/**
 * The registry in PostgreSQL, beside the collections' indexes (same schema): `repo_collections`, `repo_shares`
 * and `repo_audit`, so that every replica on the database sees the same collections, shares and log. The rows'
 * contents (owners, names, who shares with whom) are the ACL itself; the documents stay in the indexes, under
 * row-level security. Connects at the first statement, and again after a failed connection.
 */
export const openPostgresRegistry = (databaseUrl: string, schema = "quiver_search"): RegistrySql => {
  const s = `"${schema.replaceAll('"', '""')}"`;
  const tables = tableNames(`${s}.repo_`);
  let pool: Promise<pg.Pool> | undefined;
  const open = (): Promise<pg.Pool> => {
    if (pool) return pool;
    const opening = guard(connect(databaseUrl, s, tables)).catch((error: unknown) => {
      if (pool === opening) pool = undefined;
      throw error;
    });
    pool = opening;
    return opening;
  };
  return {
    rows: async <T>(sql: string, params: ReadonlyArray<unknown>) => {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return (await guard((await open()).query(text, [...params]))).rows as T[];
    },
    tables,
    bytewise: ' COLLATE "C"',
    close: async () => {
      const closing = pool;
      pool = undefined;
      await (await closing?.catch(() => undefined))?.end().catch(() => undefined);
    },
  };
};
