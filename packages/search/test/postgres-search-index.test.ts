import { startTcpRelay, testPostgres } from "@quiver/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openSearchIndex, SearchError, shareSearchIndex, unshareSearchIndex } from "../src/index.js";
import { type StoreUnderTest, searchIndexConformance } from "./conformance.js";
import { documentsConformance } from "./documents-conformance.js";
import { scifactSubset } from "./scifact-subset.js";

// The PostgreSQL store, on the server of QUIVER_TEST_DATABASE_URL (or DATABASE_URL, or the local test server).
// Each run works in its own random schema, dropped at the end, so parallel runs never meet. When no server
// answers, the suite is skipped and says why.
const db = await testPostgres("quiver_search_test");
const { url, schema, admin } = db;
const reason = db.skipReason;

afterAll(async () => {
  await db.dropSchema();
});

let count = 0;
describe.skipIf(reason !== undefined)("the PostgreSQL store", () => {
  const postgresStore: StoreUnderTest = {
    fresh: () => {
      const name = `index-${++count}`;
      return {
        open: (chunk) => openSearchIndex({ databaseUrl: url, schema, name, ...(chunk ? { chunk } : {}) }),
        breakVersion: async () => {
          await admin((c) =>
            c.query(`UPDATE ${schema}.indexes SET analyzer_version = 999 WHERE name = $1`, [name]),
          );
        },
      };
    },
  };
  searchIndexConformance(postgresStore);
  documentsConformance(postgresStore);

  describe("row-level security", () => {
    const secrets = (owner: string) => [
      { id: "notes", title: `${owner}'s notes`, text: `${owner} measured telomerase activity in relapse.` },
    ];

    it("keeps each principal's rows out of another principal's transactions, whatever the query says", async () => {
      const alice = await openSearchIndex({ databaseUrl: url, schema, name: "repo", principal: "alice" });
      const bob = await openSearchIndex({ databaseUrl: url, schema, name: "repo", principal: "bob" });
      await alice.add(secrets("alice"));
      await bob.add(secrets("bob"));
      // Through the store: the same index name, two principals, two separate indexes.
      expect((await alice.search("telomerase")).results.map((r) => r.title)).toEqual(["alice's notes"]);
      expect((await bob.search("telomerase")).results.map((r) => r.title)).toEqual(["bob's notes"]);
      expect((await alice.stats()).documents).toBe(1);

      // Directly, as the store's transactions run (the RLS-bound role, the principal set for the transaction),
      // with no WHERE on the principal at all: only alice's rows exist.
      const asPrincipal = (principal: string, sql: string) =>
        admin(async (c) => {
          await c.query("BEGIN");
          await c.query("SET LOCAL ROLE quiver_search_rls");
          await c.query("SELECT set_config('quiver.principal', $1, true)", [principal]);
          try {
            return (await c.query(sql)).rows;
          } finally {
            await c.query("ROLLBACK");
          }
        });
      const texts = (rows: { text: string }[]) => rows.map((r) => r.text).join(" | ");
      const aliceChunks = await asPrincipal("alice", `SELECT text FROM ${schema}.chunks`);
      expect(texts(aliceChunks)).toContain("alice measured");
      expect(texts(aliceChunks)).not.toContain("bob");
      const aliceDocs = await asPrincipal("alice", `SELECT title, principal FROM ${schema}.documents`);
      expect(aliceDocs.map((r) => r.principal)).toEqual(["alice"]);
      expect(
        await asPrincipal("alice", `SELECT * FROM ${schema}.vocabulary WHERE principal = 'bob'`),
      ).toEqual([]);
      // Another principal sees none of them; a transaction that sets no principal sees no row at all.
      expect(await asPrincipal("mallory", `SELECT * FROM ${schema}.chunks`)).toEqual([]);
      const unset = await admin(async (c) => {
        await c.query("BEGIN");
        await c.query("SET LOCAL ROLE quiver_search_rls");
        try {
          return (await c.query(`SELECT * FROM ${schema}.documents`)).rows;
        } finally {
          await c.query("ROLLBACK");
        }
      });
      expect(unset).toEqual([]);
      // Writing a row for another principal is refused by the policy's check.
      await expect(
        asPrincipal(
          "alice",
          `UPDATE ${schema}.documents SET principal = 'bob' WHERE principal = 'alice' RETURNING rowid`,
        ),
      ).rejects.toThrow(/row-level security/);
      // The table owner (the login role, were it not a superuser) is bound too: FORCE ROW LEVEL SECURITY.
      const forced = await admin((c) =>
        c.query(
          `SELECT relname FROM pg_class WHERE relnamespace = $1::regnamespace AND relrowsecurity AND relforcerowsecurity`,
          [schema],
        ),
      );
      expect(forced.rows.map((r) => r.relname).sort()).toEqual([
        "chunks",
        "documents",
        "grants",
        "indexes",
        "vocabulary",
      ]);
      await alice.close();
      await bob.close();
    });
  });

  describe("grants", () => {
    it("let a grantee read, never write, an owner's index, until withdrawn; no one else reads it", async () => {
      const where = { databaseUrl: url, schema, name: "lab" };
      const owner = await openSearchIndex({ ...where, principal: "carol" });
      await owner.add([
        { id: "n", title: "Carol's assay", text: "Telomerase assay results for the relapse cohort." },
      ]);
      const asDan = await openSearchIndex({ ...where, principal: "carol", reader: "dan" });
      const asEve = await openSearchIndex({ ...where, principal: "carol", reader: "eve" });
      expect(await asDan.search("telomerase")).toEqual({ results: [], total: 0 });

      expect(await shareSearchIndex({ ...where, principal: "carol", grantee: "dan" })).toBe(true);
      const seen = await asDan.search("telomerase");
      expect(seen.results.map((r) => r.title)).toEqual(["Carol's assay"]);
      expect(seen.results[0]!.score).toBeCloseTo((await owner.search("telomerase")).results[0]!.score, 9);
      expect(await asDan.count()).toBe(1);
      expect(await asEve.count()).toBe(0);
      await expect(asDan.add([{ id: "x", text: "vandalism" }])).rejects.toThrow(/only its principal/);
      await expect(asDan.removeCollection("default")).rejects.toThrow(/only its principal/);

      // Directly, as dan: the rows are readable, not deletable, whatever the statement says.
      const asDanSql = (sql: string) =>
        admin(async (c) => {
          await c.query("BEGIN; SET LOCAL ROLE quiver_search_rls");
          await c.query("SELECT set_config('quiver.principal', 'dan', true)");
          try {
            const result = await c.query(sql);
            return { rows: result.rows, count: result.rowCount };
          } finally {
            await c.query("ROLLBACK");
          }
        });
      expect(
        (await asDanSql(`SELECT principal FROM ${schema}.documents WHERE index_name = 'lab'`)).rows,
      ).toEqual([{ principal: "carol" }]);
      expect((await asDanSql(`DELETE FROM ${schema}.chunks WHERE index_name = 'lab'`)).count).toBe(0);
      // Only the owner can grant or withdraw: dan can neither drop his grant nor forge one for eve.
      expect((await asDanSql(`DELETE FROM ${schema}.grants`)).count).toBe(0);
      await expect(asDanSql(`INSERT INTO ${schema}.grants VALUES ('lab', 'carol', 'eve')`)).rejects.toThrow(
        /row-level security/,
      );

      expect(await unshareSearchIndex({ ...where, principal: "carol", grantee: "dan" })).toBe(true);
      expect(await asDan.search("telomerase")).toEqual({ results: [], total: 0 });
      for (const index of [owner, asDan, asEve]) await index.close();
    });
  });

  describe("ranking", () => {
    // The SciFact subset of scifact-quality.test.ts in both stores: the same hits, in the same order, with the
    // same scores (to rounding), with and without feedback. 15 s on a loaded 2-core machine.
    it("ranks a SciFact subset exactly as the SQLite store does", { timeout: 120_000 }, async () => {
      const { docs, queries, judgments } = scifactSubset();
      const sqlite = await openSearchIndex({ path: ":memory:" });
      const postgres = await openSearchIndex({ databaseUrl: url, schema, name: "scifact" });
      await sqlite.add(docs);
      await postgres.add(docs);
      let compared = 0;
      for (const id of judgments.keys()) {
        for (const feedback of [true, false]) {
          const [a, b] = await Promise.all(
            [sqlite, postgres].map((index) => index.search(queries.get(id)!, { topK: 10, feedback })),
          );
          expect(b!.results.map((r) => r.id)).toEqual(a!.results.map((r) => r.id));
          expect(b!.total).toBe(a!.total);
          for (const [i, r] of b!.results.entries()) expect(r.score).toBeCloseTo(a!.results[i]!.score, 9);
          compared++;
        }
      }
      expect(compared).toBe(100);
      expect((await postgres.stats()).terms).toBe((await sqlite.stats()).terms);
      await sqlite.close();
      await postgres.close();
    });
  });

  describe("connection failures", () => {
    it("fail calls with unavailable while the server is gone, and recover when it is back", async () => {
      // A TCP relay to the server stands in for it: closing the relay (and its connections) is the outage.
      const target = new URL(url);
      const relay = await startTcpRelay(target.hostname, Number(target.port || 5432));
      const through = new URL(url);
      through.host = `127.0.0.1:${relay.port}`;
      const index = await openSearchIndex({ databaseUrl: through.href, schema, name: "outage" });
      await index.add([{ id: "a", text: "Ribosomes translate messenger RNA." }]);
      expect((await index.search("ribosome")).results).toHaveLength(1);

      await relay.stop();
      const down = await index.search("ribosome").catch((e: unknown) => e);
      expect(SearchError.isInstance(down) && down.code).toBe("unavailable");

      await relay.start();
      expect((await index.search("ribosome")).results).toHaveLength(1);
      await index.close();
      await relay.close();
    });

    it("reject with SearchError unavailable, without the password, and never hang", async () => {
      const dead = "postgres://quiver:s3cret-password@127.0.0.1:9/test";
      const failure = await openSearchIndex({ databaseUrl: dead, schema }).catch((e: unknown) => e);
      expect(SearchError.isInstance(failure) && failure.code).toBe("unavailable");
      expect(String((failure as Error).message)).not.toContain("s3cret");
      await expect(openSearchIndex({ databaseUrl: "mysql://x", schema })).rejects.toThrow(/postgres/);
    });
  });
});
