import pg from "pg";
import { SearchError } from "../errors.js";
import { migrate, RLS_ROLE } from "./schema.js";

/** Longest a statement may run; a stalled server fails the call instead of hanging it. */
const STATEMENT_TIMEOUT_MS = 30_000;
/** Longest a call waits for a connection. */
const CONNECT_TIMEOUT_MS = 5_000;

/** A pool shared by every index opened on one URL, with what was learnt about the server. */
interface SharedPool {
  readonly pool: pg.Pool;
  users: number;
  /** True when the login role is a superuser or bypasses RLS: transactions then switch to RLS_ROLE. */
  bypass?: Promise<boolean> | undefined;
  /** Schemas migrated through this pool. */
  readonly schemas: Map<string, Promise<void>>;
}

const pools = new Map<string, SharedPool>();

/** `postgres://host:port/database`: the URL without user, password or parameters, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "postgres://(unparsable URL)";
  }
}

/** Whether an error means the server cannot be reached or stopped answering, rather than a bad statement. */
export function isUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (/^(08|57P|53)/.test(code) || code === "57014") return true; // connection, shutdown, resources, timeout
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"].includes(code))
      return true;
  }
  return (
    typeof message === "string" &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
      message,
    )
  );
}

/** A connection to an index's database: transactions run as one principal, under row-level security. */
export class Connection {
  private released = false;

  private constructor(
    private readonly key: string,
    private readonly shared: SharedPool,
    readonly where: string,
    /** The full URL, for the connection that listens for changes (never shown: see `where`). */
    readonly url: string,
  ) {}

  /** Takes (or creates) the pool of a URL. */
  static acquire(url: string, poolSize: number): Connection {
    const key = `${poolSize} ${url}`;
    let shared = pools.get(key);
    if (!shared) {
      const pool = new pg.Pool({
        connectionString: url,
        max: poolSize,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        // A server that stops answering (not only one that refuses) fails the call too.
        query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
        idleTimeoutMillis: 10_000,
        allowExitOnIdle: true,
      });
      // A connection dropped by the server (idle, or checked out between two statements) must not crash the
      // process: the statement in flight, or the next one, fails instead, and the pool replaces the connection.
      pool.on("error", () => undefined);
      pool.on("connect", (client) => client.on("error", () => undefined));
      shared = { pool, users: 0, schemas: new Map() };
      pools.set(key, shared);
    }
    shared.users++;
    return new Connection(key, shared, describeUrl(url), url);
  }

  /** Creates the schema's tables, policies and role once per pool (and checks them on later opens). */
  async prepare(schema: string): Promise<void> {
    let done = this.shared.schemas.get(schema);
    if (!done) {
      done = this.guard(async () => {
        const client = await this.shared.pool.connect();
        try {
          await migrate(client, schema, await this.bypass(client));
        } finally {
          client.release();
        }
      });
      done.catch(() => this.shared.schemas.delete(schema));
      this.shared.schemas.set(schema, done);
    }
    return done;
  }

  /**
   * Runs `work` in one transaction as `principal`: `quiver.principal` is set for the transaction only, and a
   * superuser login switches to the RLS-bound role, so the tables' policies apply to every statement.
   * Connection failures and timeouts become SearchError `unavailable`.
   */
  transaction<T>(principal: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.guard(async () => {
      const client = await this.shared.pool.connect();
      let broken = false;
      try {
        const bypass = await this.bypass(client);
        await client.query(
          `BEGIN; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS};${bypass ? ` SET LOCAL ROLE ${RLS_ROLE};` : ""} ` +
            `SELECT set_config('quiver.principal', ${client.escapeLiteral(principal)}, true)`,
        );
        try {
          const result = await work(client);
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          throw error;
        }
      } catch (error) {
        if (isUnavailable(error)) broken = true;
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  /**
   * Refreshes the planner's statistics of a schema's tables after a large load, as the login role (outside the
   * RLS-bound transactions). Best effort: a role that may not analyse them leaves it to autovacuum.
   */
  async analyze(schema: string): Promise<void> {
    const s = `"${schema.replaceAll('"', '""')}"`;
    await this.shared.pool
      .query(`ANALYZE ${s}.documents, ${s}.chunks, ${s}.vocabulary, ${s}.indexes`)
      .catch(() => undefined);
  }

  /** Gives the pool back; the last user closes it. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (--this.shared.users === 0) {
      pools.delete(this.key);
      await this.shared.pool.end().catch(() => undefined);
    }
  }

  private bypass(client: pg.PoolClient): Promise<boolean> {
    this.shared.bypass ??= client
      .query<{ bypass: boolean }>(
        "SELECT rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user",
      )
      .then((r) => r.rows[0]?.bypass === true);
    const answer = this.shared.bypass;
    answer.catch(() => {
      if (this.shared.bypass === answer) this.shared.bypass = undefined;
    });
    return answer;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (SearchError.isInstance(error) || !isUnavailable(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new SearchError(
        "unavailable",
        `PostgreSQL at ${this.where} is unavailable (${reason}); try again when it is back.`,
      );
    }
  }
}
