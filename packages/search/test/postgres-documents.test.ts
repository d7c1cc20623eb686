import { testPostgres } from "@quiver/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openSearchIndex, shareSearchIndex, unshareSearchIndex } from "../src/index.js";
import { pgV1Ddl, type V1Document, writePgV1 } from "./fixtures/schema-v1.js";

// Original texts in the PostgreSQL store: the migration of a schema-1 schema built with that version's DDL
// and rows, and the per-principal isolation of document reads. Skipped, saying why, when no server answers.
const db = await testPostgres("quiver_search_docs");
const { url, admin } = db;
const migrated = `${db.schema}_v1`;
const fresh = db.schema;

afterAll(async () => {
  await db.dropSchema();
  if (!db.skipReason) await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${migrated} CASCADE`));
});

const OLD = (owner: string): V1Document[] => [
  { id: "old", title: `${owner}'s assay`, text: `${owner} measured telomerase activity in relapse.` },
];

/** Rows a principal's transactions see, as the store runs them (RLS-bound role, principal set). */
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

describe.skipIf(db.skipReason !== undefined)("original texts on PostgreSQL", () => {
  it("migrates a schema-1 schema in place: old documents search and read as having no original", async () => {
    await admin(async (c) => {
      await c.query(`CREATE SCHEMA ${migrated}`);
      await c.query(pgV1Ddl(migrated));
      await writePgV1(c, migrated, "repo", "alice", OLD("alice"));
      await writePgV1(c, migrated, "repo", "bob", OLD("bob"));
    });
    const where = { databaseUrl: url, schema: migrated, name: "repo" };
    // Opening through a grant migrates the tables; bob's own index row stays at 1 until bob opens it.
    expect(await shareSearchIndex({ ...where, principal: "bob", grantee: "dan" })).toBe(true);
    const versions = () =>
      admin(
        async (c) =>
          (await c.query(`SELECT principal, schema_version FROM ${migrated}.indexes ORDER BY 1`)).rows,
      );
    expect(await versions()).toEqual([
      { principal: "alice", schema_version: 1 },
      { principal: "bob", schema_version: 1 },
    ]);
    const asDan = await openSearchIndex({ ...where, principal: "bob", reader: "dan" });
    expect((await asDan.document("old"))?.textMissing).toMatch(/Add it again/);

    const alice = await openSearchIndex({ ...where, principal: "alice" });
    expect(await versions()).toEqual([
      { principal: "alice", schema_version: 2 },
      { principal: "bob", schema_version: 1 },
    ]);
    expect((await alice.search("telomerase")).results.map((r) => r.title)).toEqual(["alice's assay"]);
    const old = await alice.document("old");
    expect(old).toMatchObject({ id: "old", collection: "default", title: "alice's assay", chunks: 1 });
    expect(old?.text).toBeUndefined();
    expect(old?.textMissing).toMatch(/indexed before .* kept original texts.*Add it again to read it whole/);
    await alice.add([
      { id: "new", title: "alice's notes", text: "Relapse notes: ß, \u{1F9EC}, NUL \u0000." },
    ]);
    expect((await alice.document("new"))?.text).toBe("Relapse notes: ß, \u{1F9EC}, NUL \u0000.");
    expect((await alice.documents()).documents.map((d) => [d.id, d.textMissing === undefined])).toEqual([
      ["new", true],
      ["old", false],
    ]);

    // bob's index, migrated too, is still his alone.
    const bob = await openSearchIndex({ ...where, principal: "bob" });
    expect((await bob.search("telomerase")).results.map((r) => r.title)).toEqual(["bob's assay"]);
    expect(await bob.document("new")).toBeUndefined();
    expect((await bob.documents()).documents.map((d) => d.id)).toEqual(["old"]);
    expect((await versions()).map((v) => v.schema_version)).toEqual([2, 2]);
    for (const index of [asDan, alice, bob]) await index.close();
  });

  it("shows a document and its text only to its principal and its grantees", async () => {
    const where = { databaseUrl: url, schema: fresh, name: "lab" };
    const secret = "Unpublished: telomerase activity predicts relapse in cohort 7.";
    const carol = await openSearchIndex({ ...where, principal: "carol" });
    await carol.add([{ id: "n", title: "Carol's assay", text: secret }], { collection: "c" });
    // The same index name and id for another principal: another index, which holds nothing.
    const mallory = await openSearchIndex({ ...where, principal: "mallory" });
    expect(await mallory.document("n", { collection: "c" })).toBeUndefined();
    expect(await mallory.documents({ collection: "c" })).toEqual({ documents: [] });
    // A reader without a grant sees nothing; with one, the text; once withdrawn, nothing again.
    const asDan = await openSearchIndex({ ...where, principal: "carol", reader: "dan" });
    expect(await asDan.document("n", { collection: "c" })).toBeUndefined();
    expect(await asDan.documents({ collection: "c" })).toEqual({ documents: [] });
    await shareSearchIndex({ ...where, principal: "carol", grantee: "dan" });
    expect((await asDan.document("n", { collection: "c" }))?.text).toBe(secret);
    expect((await asDan.documents({ collection: "c" })).documents.map((d) => d.size)).toEqual([
      secret.length,
    ]);
    await unshareSearchIndex({ ...where, principal: "carol", grantee: "dan" });
    expect(await asDan.document("n", { collection: "c" })).toBeUndefined();

    // Directly, without any WHERE on the principal: no other principal's transaction sees the original.
    const originals = (principal: string) =>
      asPrincipal(principal, `SELECT convert_from(original, 'UTF8') AS text FROM ${fresh}.documents`);
    expect(await originals("carol")).toEqual([{ text: secret }]);
    expect(await originals("mallory")).toEqual([]);
    expect(await originals("dan")).toEqual([]);
    for (const index of [carol, mallory, asDan]) await index.close();
  });
});
