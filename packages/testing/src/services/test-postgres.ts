import { randomBytes } from "node:crypto";

/** The part of a `pg` client a test's own statements use. */
export interface SqlClient {
  readonly query: (
    text: string,
    values?: ReadonlyArray<unknown>,
  ) => Promise<{ rows: any[]; rowCount: number | null }>;
}

/** A PostgreSQL for one test file: its server, its own schema, and why it is skipped, if it is. */
export interface TestPostgres {
  /** The server: QUIVER_TEST_DATABASE_URL, else DATABASE_URL, else the local test server. */
  readonly url: string;
  /** A fresh random schema name for this file (`<label>_<10 hex>`); nothing creates it. */
  readonly schema: string;
  /** Why the tests skip (no server answers), or undefined when they run. */
  readonly skipReason: string | undefined;
  /** Runs statements on a plain connection of the login role (a superuser on the test server). */
  readonly admin: <T>(work: (client: SqlClient) => Promise<T>) => Promise<T>;
  /** Drops the schema and all in it (nothing when skipped). */
  readonly dropSchema: () => Promise<void>;
}

/** Error codes of a server that cannot be reached (the only failures that skip). */
const UNREACHABLE = ["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "ECONNRESET", "57P03"];

/**
 * A PostgreSQL for a test file, with a schema of its own so parallel runs never meet. Only a server
 * that cannot be reached skips (with the reason printed); any other failure, such as a refused login
 * or a missing database, throws, so a broken set-up fails the run. Needs the `pg` package.
 *
 * @example
 * const db = await testPostgres("rag_test");
 * afterAll(db.dropSchema);
 * describe.skipIf(db.skipReason !== undefined)("on PostgreSQL", () => {
 *   it("has its own schema", () => expect(db.schema).toContain("rag_test"));
 * });
 */
export const testPostgres = async (label: string): Promise<TestPostgres> => {
  const { default: pg } = await import("pg");
  const url =
    process.env.QUIVER_TEST_DATABASE_URL ??
    process.env.DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test";
  const schema = `${label}_${randomBytes(5).toString("hex")}`;
  const admin = async <T>(work: (client: SqlClient) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    await client.connect();
    try {
      return await work(client as unknown as SqlClient);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const skipReason = await admin((c) => c.query("SELECT 1")).then(
    () => undefined,
    (error: { code?: string; message?: string }) => {
      if (!UNREACHABLE.includes(error.code ?? "") && !/timeout/i.test(error.message ?? "")) throw error;
      return error.message ?? String(error);
    },
  );
  // biome-ignore lint/suspicious/noConsole: a test helper says why the tests it serves are skipped
  if (skipReason) console.warn(`PostgreSQL tests skipped: no server at ${new URL(url).host} (${skipReason})`);
  return {
    url,
    schema,
    skipReason,
    admin,
    dropSchema: async () => {
      if (!skipReason) await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
};
