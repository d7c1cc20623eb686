import type pg from "pg";

/**
 * Bumped when the PostgreSQL tables change shape. A schema of version 1 is migrated in place (see
 * {@link migrate}), and so is each index of version 1 when its owner opens it; any other version is refused.
 * 2: `documents.original` (the text as added, UTF-8 bytes), `original_size` (characters), `original_bytes`.
 */
export const PG_SCHEMA_VERSION = 2;

/** Index versions this one opens, migrating them: their documents simply have no original text. */
export const MIGRATED_PG_SCHEMA_VERSIONS: readonly number[] = [1];

/**
 * Schema 2's additions to `documents`: the original text as UTF-8 bytes (bytea keeps every character, NUL
 * included, whatever the database's encoding) with its sizes, and an index listing a collection by id in
 * code point order (`COLLATE "C"`, the SQLite store's order).
 */
const originalColumns = (s: string) => `
ALTER TABLE ${s}.documents ADD COLUMN original bytea, ADD COLUMN original_size integer,
  ADD COLUMN original_bytes integer;
CREATE INDEX documents_listing ON ${s}.documents (index_name, principal, collection, id COLLATE "C");`;

/**
 * The role transactions switch to when the login role would bypass row-level security (a superuser, or a role
 * with BYPASSRLS): it owns nothing and is granted only the rows' tables, so the policies always apply.
 */
export const RLS_ROLE = "quiver_search_rls";

/** Tables carrying a principal, each under the same policies, with the column naming their index. */
export const PRINCIPAL_TABLES = [
  ["indexes", "name"],
  ["documents", "index_name"],
  ["chunks", "index_name"],
  ["vocabulary", "index_name"],
] as const;

/** The current transaction's principal in SQL. */
const CURRENT = "current_setting('quiver.principal', true)";

/** A schema name quoted as an identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The tables of a schema. Every row carries its index name and principal (its owner). A transaction sets its
 * principal with `set_config('quiver.principal', ...)`; the policies let it write only its own rows, and read its
 * own rows and those of indexes whose owner granted it reading (`grants`). FORCE ROW LEVEL SECURITY applies
 * them to the tables' owner too.
 *
 * - `indexes`: one row per index and principal: versions, chunking, corpus statistics (chunks, terms) and a
 *   write counter that readers compare to drop cached document frequencies.
 * - `documents`: fields as the SQLite store keeps them (the original text included), plus arrays of the compared
 *   author names, tag keys and `[key, value]` metadata pairs, each with a GIN index for the filters.
 * - `chunks`: the text, the analysed terms (title and body, as the SQLite store's FTS5 columns hold them) and a
 *   `tsvector` of those terms, indexed with GIN: one position per occurrence, title occurrences from 1 and
 *   body occurrences from 8193, so the first pass computes FTS5's BM25 (title weight included) from it.
 * - `vocabulary`: chunks containing each term, for IDF (what fts5vocab answers for SQLite).
 * - `grants`: (index, owner, grantee): the grantee may read the owner's rows of that index. Only the owner can
 *   add or remove a grant; owner and grantee can see it.
 */
function ddl(s: string): string {
  return `
CREATE TABLE ${s}.indexes (
  name text NOT NULL,
  principal text NOT NULL,
  schema_version integer NOT NULL,
  analyzer_version integer NOT NULL,
  chunk_size integer NOT NULL,
  chunk_overlap integer NOT NULL,
  version bigint NOT NULL DEFAULT 0,
  chunk_count bigint NOT NULL DEFAULT 0,
  term_total bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (name, principal)
);
CREATE TABLE ${s}.documents (
  rowid bigserial PRIMARY KEY,
  index_name text NOT NULL,
  principal text NOT NULL,
  collection text NOT NULL,
  id text NOT NULL,
  title text,
  date text,
  date_key text,
  doi text,
  authors text,
  tags text,
  metadata text NOT NULL,
  chunks integer NOT NULL,
  author_names text[] NOT NULL,
  author_lasts text[] NOT NULL,
  tag_keys text[] NOT NULL,
  fields text[] NOT NULL,
  UNIQUE (index_name, principal, collection, id)
);
CREATE INDEX documents_date ON ${s}.documents (index_name, principal, date_key);
CREATE INDEX documents_author_names ON ${s}.documents USING gin (author_names);
CREATE INDEX documents_author_lasts ON ${s}.documents USING gin (author_lasts);
CREATE INDEX documents_tag_keys ON ${s}.documents USING gin (tag_keys);
CREATE INDEX documents_fields ON ${s}.documents USING gin (fields);
${originalColumns(s)}
CREATE TABLE ${s}.chunks (
  rowid bigserial PRIMARY KEY,
  doc bigint NOT NULL REFERENCES ${s}.documents (rowid) ON DELETE CASCADE,
  index_name text NOT NULL,
  principal text NOT NULL,
  ord integer NOT NULL,
  text text NOT NULL,
  terms integer NOT NULL,
  title_terms text NOT NULL,
  body_terms text NOT NULL,
  tsv tsvector NOT NULL
);
CREATE INDEX chunks_doc ON ${s}.chunks (doc, ord);
CREATE INDEX chunks_tsv ON ${s}.chunks USING gin (tsv);
CREATE TABLE ${s}.vocabulary (
  index_name text NOT NULL,
  principal text NOT NULL,
  term text NOT NULL,
  chunks bigint NOT NULL,
  PRIMARY KEY (index_name, principal, term)
);
CREATE TABLE ${s}.grants (
  index_name text NOT NULL,
  owner text NOT NULL,
  grantee text NOT NULL,
  PRIMARY KEY (index_name, owner, grantee)
);
CREATE INDEX grants_grantee ON ${s}.grants (grantee);
ALTER TABLE ${s}.grants ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${s}.grants FORCE ROW LEVEL SECURITY;
CREATE POLICY grants_read ON ${s}.grants FOR SELECT USING (owner = ${CURRENT} OR grantee = ${CURRENT});
CREATE POLICY grants_add ON ${s}.grants FOR INSERT WITH CHECK (owner = ${CURRENT});
CREATE POLICY grants_remove ON ${s}.grants FOR DELETE USING (owner = ${CURRENT});
${PRINCIPAL_TABLES.map(
  ([t, index]) => `ALTER TABLE ${s}.${t} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${s}.${t} FORCE ROW LEVEL SECURITY;
CREATE POLICY own_or_granted_read ON ${s}.${t} FOR SELECT USING (
  principal = ${CURRENT}
  OR (${index}, principal) IN (SELECT g.index_name, g.owner FROM ${s}.grants g WHERE g.grantee = ${CURRENT}));
CREATE POLICY own_insert ON ${s}.${t} FOR INSERT WITH CHECK (principal = ${CURRENT});
CREATE POLICY own_update ON ${s}.${t} FOR UPDATE USING (principal = ${CURRENT}) WITH CHECK (principal = ${CURRENT});
CREATE POLICY own_delete ON ${s}.${t} FOR DELETE USING (principal = ${CURRENT});`,
).join("\n")}
`;
}

/**
 * Creates a schema's tables and policies when missing, or migrates a schema of version 1 (adds the original
 * text columns, NULL for the documents already there), under an advisory lock in one transaction so that
 * concurrent first opens do not race and a failed migration changes nothing. With a login role that bypasses
 * RLS, also creates RLS_ROLE (once per cluster) and grants it the tables.
 */
export async function migrate(client: pg.PoolClient, schema: string, bypass: boolean): Promise<void> {
  const s = quoteIdent(schema);
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('quiver_search_migrate'))");
    const exists = await client.query<{ t: string | null }>("SELECT to_regclass($1) AS t", [`${s}.grants`]);
    if (exists.rows[0]?.t == null) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(ddl(s));
    } else {
      // Checked first: ALTER TABLE locks the table out even when it has nothing to add.
      const original = await client.query(
        "SELECT 1 FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'original' AND NOT attisdropped",
        [`${s}.documents`],
      );
      if (original.rowCount === 0) await client.query(originalColumns(s));
    }
    if (bypass) {
      const role = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [RLS_ROLE]);
      if (role.rowCount === 0) await client.query(`CREATE ROLE ${RLS_ROLE} NOLOGIN`);
      await client.query(
        `GRANT USAGE ON SCHEMA ${s} TO ${RLS_ROLE};
         GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${RLS_ROLE};
         GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${RLS_ROLE};`,
      );
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
