import { describe, expect, it } from "vitest";
import { documentMimeType, listAllDocuments, openSearchIndex } from "../src/index.js";

describe("listAllDocuments and documentMimeType", () => {
  it("lists every document of a collection across pages, in id order, without texts", async () => {
    const index = await openSearchIndex({ path: ":memory:" });
    const ids = Array.from({ length: 1203 }, (_, i) => `doc-${String(i).padStart(4, "0")}`);
    await index.add(
      ids.map((id) => ({ id, text: `Text of ${id}.` })),
      { collection: "many" },
    );
    await index.add([{ id: "other", text: "Elsewhere." }]);
    const all = await listAllDocuments(index, "many");
    expect(all.map((d) => d.id)).toEqual(ids);
    expect(all[0]).toEqual({ id: "doc-0000", size: 17, bytes: 17 });
    expect((await listAllDocuments(index)).map((d) => d.id)).toEqual(["other"]);
    expect(await listAllDocuments(index, "none")).toEqual([]);
    await index.close();
  });

  it("says a document from a Markdown file is Markdown, anything else plain text", () => {
    expect(documentMimeType({ metadata: { source: "notes/cells.MD" } })).toBe("text/markdown");
    expect(documentMimeType({ metadata: { source: "refs/papers.bib" } })).toBe("text/plain");
    expect(documentMimeType({ metadata: {} })).toBe("text/plain");
  });
});
