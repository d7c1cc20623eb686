import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { openSearchIndex, SearchError } from "../src/index.js";
import { type V1Document, writeSqliteV1 } from "./fixtures/schema-v1.js";

// A SQLite index written with schema 1's DDL and rows (no original texts), opened by the current code.
const folder = mkdtempSync(join(tmpdir(), "quiver-search-migration-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const OLD: V1Document[] = [
  {
    id: "old-1",
    title: "Telomerase in relapse",
    text: "Telomerase activity predicts relapse in the cohort.",
  },
  { id: "old-2", title: "Mitochondria", text: "Mitochondria produce most of the cell's ATP." },
];

const meta = (path: string, key: string) => {
  const db = new DatabaseSync(path);
  try {
    return (db.prepare("SELECT value FROM search_meta WHERE key = ?").get(key) as { value: string }).value;
  } finally {
    db.close();
  }
};

describe("migrating a schema-1 SQLite index", () => {
  it("adds the original text columns in place: old documents search and say they have no original", async () => {
    const path = join(folder, "v1.db");
    const db = new DatabaseSync(path);
    writeSqliteV1(db, OLD);
    db.close();

    const index = await openSearchIndex({ path });
    expect(meta(path, "schema_version")).toBe("2");
    // Still searches what schema 1 indexed.
    expect((await index.search("telomerase relapse")).results.map((r) => r.docId)).toEqual(["old-1"]);
    expect(await index.count()).toBe(2);

    const old = await index.document("old-1");
    expect(old).toMatchObject({ id: "old-1", title: "Telomerase in relapse", chunks: 1 });
    expect(old?.text).toBeUndefined();
    expect(old?.size).toBeUndefined();
    expect(old?.textMissing).toMatch(/indexed before .* kept original texts.*Add it again to read it whole/);

    // A document added now is kept whole; one added again loses its "no original".
    await index.add([
      { id: "new", title: "Krebs", text: "The Krebs cycle feeds the respiratory chain.\n" },
      { ...OLD[1]!, text: `${OLD[1]!.text} Again.` },
    ]);
    expect((await index.document("new"))?.text).toBe("The Krebs cycle feeds the respiratory chain.\n");
    expect((await index.document("old-2"))?.text).toBe(`${OLD[1]!.text} Again.`);
    const page = await index.documents();
    expect(page.documents.map((d) => [d.id, d.size, d.textMissing === undefined])).toEqual([
      ["new", 45, true],
      ["old-1", undefined, false],
      ["old-2", OLD[1]!.text.length + 7, true],
    ]);
    expect((await index.search("krebs")).results.map((r) => r.docId)).toEqual(["new"]);
    await index.close();

    // Reopening a migrated index migrates nothing more.
    const again = await openSearchIndex({ path });
    expect((await again.document("new"))?.size).toBe(45);
    await again.close();
  });

  it("still refuses an index of schema 1 with another analyzer, changing nothing", async () => {
    const path = join(folder, "v1-other-analyzer.db");
    const db = new DatabaseSync(path);
    writeSqliteV1(db, OLD);
    db.exec("UPDATE search_meta SET value = '999' WHERE key = 'analyzer_version'");
    db.close();
    await expect(openSearchIndex({ path })).rejects.toSatisfy(
      (e: unknown) => SearchError.isInstance(e) && e.code === "incompatible_index",
    );
    expect(meta(path, "schema_version")).toBe("1");
    const check = new DatabaseSync(path);
    const columns = check.prepare("SELECT name FROM pragma_table_info('documents')").all();
    check.close();
    expect(columns.map((c) => c.name)).not.toContain("original");
  });
});
