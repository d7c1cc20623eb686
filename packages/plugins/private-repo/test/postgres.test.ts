import { testPostgres } from "@quiver/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createPrivateRepoPlugin, listCollections, shareCollection } from "../src/index.js";
import { addDocuments } from "../src/internal/add-documents.js";
import { as, dataOf, makeCatalog, SAMPLE_FILES, tempDir, writeFiles } from "./support/repo.js";

// The collections' indexes in PostgreSQL (QUIVER_TEST_DATABASE_URL, DATABASE_URL or the local test server),
// in a random schema dropped at the end; skipped, saying why, when no server answers.
const db = await testPostgres("quiver_repo_test");
const { url, schema, admin } = db;
const reason = db.skipReason;
afterAll(async () => {
  await db.dropSchema();
});

describe.skipIf(reason !== undefined)("private-repo on PostgreSQL (databaseUrl)", () => {
  it("stores each collection's index in PostgreSQL under its owner, serves it to every catalog, and keeps RLS", async () => {
    const indexPath = tempDir();
    const database = { databaseUrl: url, databaseSchema: schema };
    await addDocuments({
      indexPath,
      ...database,
      owner: "alice",
      collection: "papers",
      files: writeFiles(tempDir(), SAMPLE_FILES),
    });
    await addDocuments({
      indexPath,
      ...database,
      owner: "bob",
      collection: "lab",
      files: writeFiles(tempDir(), {
        "secret.md": "# Unpublished vitamin D trial\n\nZebrafish marker qqbobsecret.\n",
      }),
    });

    // Two catalogs (two replicas) on the same repository and database: both answer from the same rows.
    const replicas = [
      makeCatalog(),
      makeCatalog({ env: { DATABASE_URL: url, QUIVER_SEARCH_SCHEMA: schema } }),
    ];
    replicas[0]!.register(createPrivateRepoPlugin(), { indexPath, ...database });
    // The second replica has its own folder (another machine): collections, shares and indexes are all in the database.
    replicas[1]!.register(createPrivateRepoPlugin(), { indexPath: tempDir() });
    for (const catalog of replicas) {
      const r = await catalog.call(
        "private_repo_search",
        { search_terms: "gut microbiome insulin resistance" },
        as("alice"),
      );
      expect(r.status).toBe("success");
      expect(dataOf(r).results[0]).toMatchObject({
        title: "Gut microbiome composition and insulin resistance",
        collection: "papers",
      });
      const bob = await catalog.call(
        "private_repo_search",
        { search_terms: "qqbobsecret vitamin" },
        as("alice"),
      );
      expect(JSON.stringify(bob.data ?? {})).not.toContain("qqbobsecret");
    }
    // A share in the registry without the index's grant (written behind the plugin's back): the ACL lets alice
    // ask, the database's policy shows her nothing.
    await admin((c) =>
      c.query(
        `INSERT INTO ${schema}.repo_shares SELECT id, 'alice', 'now' FROM ${schema}.repo_collections WHERE owner = 'bob'`,
      ),
    );
    const aclOnly = await replicas[0]!.call(
      "private_repo_search",
      { search_terms: "qqbobsecret" },
      as("alice"),
    );
    expect(JSON.stringify(aclOnly.data ?? {})).not.toContain("Unpublished vitamin D");
    // Shared with the database too: the grant is in PostgreSQL, and alice reads bob's rows as herself.
    await shareCollection({
      indexPath: tempDir(),
      owner: "bob",
      collection: "lab",
      grantee: "alice",
      ...database,
    });
    const shared = await replicas[1]!.call(
      "private_repo_search",
      { search_terms: "qqbobsecret" },
      as("alice"),
    );
    expect(dataOf(shared).results.map((x: { collection: string }) => x.collection)).toEqual(["bob/lab"]);
    expect(
      (await listCollections({ indexPath, principal: "alice", ...database })).map((c) => [
        c.collection,
        c.documents,
      ]),
    ).toEqual([
      ["papers", expect.any(Number)],
      ["bob/lab", 1],
    ]);
    // Shared with a group: a member reads as the group's grantee, which holds the database's grant.
    const carol = { session: { id: "s-carol", principal: "carol", groups: ["bob-lab"] } };
    const before = await replicas[0]!.call("private_repo_search", { search_terms: "qqbobsecret" }, carol);
    expect(JSON.stringify(before.data ?? {})).not.toContain("Unpublished vitamin D");
    await shareCollection({
      indexPath: tempDir(),
      owner: "bob",
      collection: "lab",
      grantee: "group:bob-lab",
      ...database,
    });
    const member = await replicas[1]!.call("private_repo_search", { search_terms: "qqbobsecret" }, carol);
    expect(dataOf(member).results.map((x: { collection: string }) => x.collection)).toEqual(["bob/lab"]);

    // In the database, every row carries its owner, and a transaction run as bob sees none of alice's.
    const owners = await admin((c) =>
      c.query(`SELECT DISTINCT index_name, principal FROM ${schema}.documents ORDER BY 1`),
    );
    expect(owners.rows).toEqual([
      { index_name: "private-repo:alice/papers", principal: "alice" },
      { index_name: "private-repo:bob/lab", principal: "bob" },
    ]);
    const asBob = await admin(async (c) => {
      await c.query("BEGIN; SET LOCAL ROLE quiver_search_rls");
      await c.query("SELECT set_config('quiver.principal', 'bob', true)");
      const rows = (await c.query(`SELECT DISTINCT principal FROM ${schema}.chunks`)).rows;
      await c.query("ROLLBACK");
      return rows;
    });
    expect(asBob).toEqual([{ principal: "bob" }]);
  });

  it("answers unavailable (retryable), without the password, when the database cannot be reached", async () => {
    const indexPath = tempDir();
    await addDocuments({
      indexPath,
      owner: "alice",
      collection: "papers",
      files: writeFiles(tempDir(), SAMPLE_FILES),
    });
    const catalog = makeCatalog({ env: { DATABASE_URL: "postgres://quiver:s3cret@127.0.0.1:9/test" } });
    catalog.register(createPrivateRepoPlugin(), { indexPath });
    const r = await catalog.call("private_repo_search", { search_terms: "microbiome" }, as("alice"));
    expect(r.status).toBe("unavailable");
    expect(JSON.stringify(r)).not.toContain("s3cret");
    expect(JSON.stringify(r)).toMatch(/retryable":true/);
  });
});
