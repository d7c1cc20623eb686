import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { type ChunkOptions, openSearchIndex } from "../src/index.js";
import { searchIndexConformance } from "./conformance.js";
import { documentsConformance } from "./documents-conformance.js";

// The SQLite store: each location is a file in a temporary folder.
const folder = mkdtempSync(join(tmpdir(), "quiver-search-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let fileCount = 0;

const sqliteStore = {
  fresh: () => {
    const path = join(folder, `index-${++fileCount}.db`);
    return {
      open: (chunk?: Partial<ChunkOptions>) => openSearchIndex({ path, ...(chunk ? { chunk } : {}) }),
      breakVersion: async () => {
        const db = new DatabaseSync(path);
        db.exec("UPDATE search_meta SET value = '999' WHERE key = 'analyzer_version'");
        db.close();
      },
    };
  },
};
searchIndexConformance(sqliteStore);
documentsConformance(sqliteStore);

describe("the SQLite store", () => {
  it("works in memory", async () => {
    const index = await openSearchIndex({ path: ":memory:" });
    await index.add([{ id: "a", title: "Ribosomes", text: "Ribosomes translate messenger RNA." }]);
    expect((await index.search("ribosome")).results.map((r) => r.docId)).toEqual(["a"]);
    expect((await index.stats()).path).toBe(":memory:");
    await index.close();
  });
});
