import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { RegistrySql } from "./repository.js";

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

/** The registry in `repo.db`, a SQLite file of the repository folder (created with the folder). */
export const openSqliteRegistry = (path: string): RegistrySql => {
  mkdirSync(join(path, "collections"), { recursive: true });
  const db = new DatabaseSync(join(path, "repo.db"));
  db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON");
  db.exec(SCHEMA);
  return {
    rows: async <T>(sql: string, params: ReadonlyArray<unknown>) =>
      db.prepare(sql).all(...(params as SQLInputValue[])) as T[],
    tables: { collections: "collections", shares: "shares", audit: "audit" },
    bytewise: "",
    close: async () => db.close(),
  };
};
