import { testPostgres } from "@quiver/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createPrivateRepoPlugin, readAuditLog, shareCollection } from "../src/index.js";
import { addDocuments } from "../src/internal/add-documents.js";
import type { RepositoryDatabase } from "../src/internal/repository.js";
import { as, makeCatalog, tempDir, writeFiles } from "./support/repo.js";

// The private-repo plugin's resources through a real catalog, on SQLite files and on PostgreSQL: a document
// reads back byte for byte as added, to its owner and grantees only; anyone else gets not_found and nothing.
const db = await testPostgres("quiver_repo_res");
afterAll(() => db.dropSchema());

/** Alice's note: CRLF, tabs, accents, an emoji, surrounding whitespace and enough words to overlap chunks. */
const NOTE = `  Cohort 7:\r\n\t41 of 57 responded — résumé 🧬 qqalicesecret.\n\n${Array.from(
  { length: 650 },
  (_, i) => `w${i}`,
).join(" ")}\n  \n`;
const BOB = "# Bob's plate map\n\nRow C contaminated: qqbobsecret.\n";
const DOC = "private-repo://documents/alice/cohort/notes%2Fcohort.txt";

const backends: Array<[string, () => RepositoryDatabase | undefined]> = [
  ["SQLite files", () => ({})],
  ["PostgreSQL", () => (db.skipReason ? undefined : { databaseUrl: db.url, databaseSchema: db.schema })],
];

describe.each(backends)("private-repo resources on %s", (_, database) => {
  const setup = async () => {
    const indexPath = tempDir();
    const where = { indexPath, ...database() };
    const files = writeFiles(tempDir(), { "notes/cohort.txt": NOTE });
    await addDocuments({ ...where, owner: "alice", collection: "cohort", files });
    const bobFiles = writeFiles(tempDir(), { "plates.md": BOB });
    await addDocuments({ ...where, owner: "bob", collection: "lab", files: bobFiles });
    const catalog = makeCatalog();
    catalog.register(createPrivateRepoPlugin(), where);
    return { catalog, where };
  };
  const text = (answer: unknown) =>
    (answer as { value: Array<{ text: string; mimeType: string }> }).value[0]!;

  it.skipIf(database() === undefined)("reads a document back exactly as added, to its owner", async () => {
    const { catalog } = await setup();
    expect(catalog.resourceTemplates().map((t) => t.uriTemplate)).toEqual([
      "private-repo://documents/{owner}/{collection}/{id}",
      "private-repo://collections/{owner}/{collection}",
    ]);
    const read = await catalog.readResource(DOC, as("alice"));
    expect(read.ok).toBe(true);
    expect(text(read)).toEqual({ uri: DOC, mimeType: "text/plain", text: NOTE });
    expect(Buffer.from(text(read).text).equals(Buffer.from(NOTE))).toBe(true);
    const md = await catalog.readResource("private-repo://documents/bob/lab/plates.md", as("bob"));
    expect(text(md)).toMatchObject({ mimeType: "text/markdown", text: BOB });
  });

  it.skipIf(database() === undefined)(
    "lists a collection with each document's URI, to its owner only",
    async () => {
      const { catalog } = await setup();
      const list = await catalog.readResource("private-repo://collections/alice/cohort", as("alice"));
      expect(JSON.parse(text(list).text)).toEqual({
        collection: "cohort",
        owner: "alice",
        access: "owner",
        count: 1,
        documents: [
          {
            id: "notes/cohort.txt",
            title: "cohort",
            size: NOTE.length,
            bytes: Buffer.byteLength(NOTE),
            uri: DOC,
          },
        ],
      });
      expect(text(list).text).not.toContain("qqalicesecret");
    },
  );

  it.skipIf(database() === undefined)(
    "answers bob not_found for alice's document and list, says nothing of them, and logs the attempt",
    async () => {
      const { catalog, where } = await setup();
      for (const uri of [
        DOC,
        "private-repo://collections/alice/cohort",
        "private-repo://collections/alice/none",
      ]) {
        const bob = await catalog.readResource(uri, as("bob"));
        expect(bob).toEqual({ ok: false, kind: "not_found", message: `No resource at ${uri}.` });
      }
      const denied = (await readAuditLog(where)).filter((e) => e.action === "read");
      expect(denied.map((e) => [e.principal, e.target, e.outcome, e.detail])).toEqual([
        ["bob", "alice/cohort", "denied", "alice/cohort: exists, not shared"],
        ["bob", "alice/cohort", "denied", "alice/cohort: exists, not shared"],
        ["bob", "alice/none", "denied", "alice/none: no such collection"],
      ]);
      const anonymous = await catalog.readResource(DOC, as(undefined));
      expect(anonymous).toMatchObject({ ok: false, kind: "access_denied" });
      expect(JSON.stringify(anonymous)).not.toContain("qqalicesecret");
      // Completions name only what the caller may read.
      const owners = { uriTemplate: "private-repo://documents/{owner}/{collection}/{id}", argument: "owner" };
      expect(await catalog.complete(owners, "", as("bob"))).toEqual({ ok: true, value: ["bob"] });
      const names = { ...owners, argument: "collection" };
      expect(await catalog.complete(names, "", as("bob"))).toEqual({ ok: true, value: ["lab"] });
    },
  );

  it.skipIf(database() === undefined)("reads a shared collection's document to the grantee", async () => {
    const { catalog, where } = await setup();
    await shareCollection({ ...where, owner: "alice", collection: "cohort", grantee: "bob" });
    const read = await catalog.readResource(DOC, as("bob"));
    expect(text(read).text).toBe(NOTE);
    const list = await catalog.readResource("private-repo://collections/alice/cohort", as("bob"));
    expect(JSON.parse(text(list).text)).toMatchObject({ collection: "alice/cohort", access: "shared" });
    expect(await catalog.readResource(DOC, as("carol"))).toMatchObject({ ok: false, kind: "not_found" });
  });
});
