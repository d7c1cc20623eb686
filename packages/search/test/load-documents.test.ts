import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadedDocuments, loadDocuments, openSearchIndex } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "quiver-load-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(folder, path, ".."), { recursive: true });
  writeFileSync(join(folder, path), text);
};

beforeAll(() => {
  write(
    "notes/membranes.md",
    [
      "---",
      "title: Cell membranes",
      "authors: [Jane Doe, John Roe]",
      "date: 2024-02-01",
      "tags: [biology, lipids]",
      "course: bio101",
      "week: 3",
      // A nested map: front matter is YAML, read by the yaml package.
      "metadata:",
      "  unit: cells",
      "---",
      "# Lipid bilayers",
      "",
      "Membranes are made of phospholipids.",
    ].join("\n"),
  );
  write("notes/sub/osmosis.md", "Osmosis\n=======\n\nWater crosses membranes through aquaporins.\n");
  write("notes/sub/plain.md", "No heading here, just text about diffusion.");
  write("notes/readme.txt", "Plain text notes about vesicles.\nSecond line.");
  write("notes/.hidden/secret.md", "# Hidden");
  write("notes/image.png", "\x89PNG");
  write(
    "corpus.jsonl",
    [
      JSON.stringify({
        _id: "4983",
        title: "Microstructural development",
        text: "Diffusion tensor imaging of white matter.",
        metadata: {},
      }),
      "{ not json",
      JSON.stringify({
        id: 7,
        title: "Numeric id",
        content: "Content field",
        year: 2018,
        keywords: "a, b",
        lab: "x",
        nested: { a: 1 },
      }),
      JSON.stringify({ title: "No text" }),
      "",
      JSON.stringify({ text: "No id at all", author: "Ann Lee and Bo Chen", date: "spring 2020" }),
    ].join("\r\n"),
  );
  write(
    "array.json",
    JSON.stringify([{ id: "a1", text: "first" }, { id: "a2", body: "second", tags: ["t"] }, 3]),
  );
  write(
    "lines.json",
    `${JSON.stringify({ id: "l1", text: "one" })}\n${JSON.stringify({ id: "l2", text: "two" })}\n`,
  );
  write(
    "refs.bib",
    `@article{wadden2020fact,
  title = {Fact or Fiction: Verifying Scientific Claims},
  author = {Wadden, David and Lo, Kyle},
  journal = {EMNLP},
  year = {2020}, month = nov,
  doi = {10.18653/v1/2020.emnlp-main.609},
  abstract = {We introduce the task of scientific fact-checking.},
  keywords = {fact checking; claims},
}
@book{noabstract, title = {A Book Without Abstract}, year = {circa 1900}}
@misc{broken, title = {never closed
`,
  );
  symlinkSync(join(folder, "does-not-exist.md"), join(folder, "dangling.md"));
});

const byId = (loaded: LoadedDocuments, id: string) => loaded.documents.find((d) => d.id === id);

describe("loadDocuments", () => {
  it("reads Markdown with front matter and headings, and plain text", async () => {
    const loaded = await loadDocuments(join(folder, "notes"));
    expect(loaded.documents.map((d) => d.id)).toEqual([
      "membranes.md",
      "readme.txt",
      "sub/osmosis.md",
      "sub/plain.md",
    ]);
    expect(loaded.errors).toEqual([]);
    expect(loaded.skipped).toEqual(["image.png"]);
    expect(byId(loaded, "membranes.md")).toEqual({
      id: "membranes.md",
      title: "Cell membranes",
      text: "# Lipid bilayers\n\nMembranes are made of phospholipids.",
      authors: ["Jane Doe", "John Roe"],
      date: "2024-02-01",
      tags: ["biology", "lipids"],
      metadata: { course: "bio101", week: 3, unit: "cells", source: "membranes.md" },
    });
    expect(byId(loaded, "sub/osmosis.md")?.title).toBe("Osmosis");
    expect(byId(loaded, "sub/plain.md")?.title).toBe("plain");
    expect(byId(loaded, "readme.txt")).toMatchObject({
      title: "readme",
      text: "Plain text notes about vesicles.\nSecond line.",
    });
    const flat = await loadDocuments(join(folder, "notes"), { recursive: false });
    expect(flat.documents.map((d) => d.id)).toEqual(["membranes.md", "readme.txt"]);
  });

  it("reads JSON Lines (BEIR included) and JSON, reporting bad records by line", async () => {
    const loaded = await loadDocuments(join(folder, "corpus.jsonl"));
    expect(loaded.documents.map((d) => d.id)).toEqual(["4983", "7", "corpus.jsonl#6"]);
    expect(byId(loaded, "4983")).toEqual({
      id: "4983",
      title: "Microstructural development",
      text: "Diffusion tensor imaging of white matter.",
      metadata: { source: "corpus.jsonl" },
    });
    expect(byId(loaded, "7")).toEqual({
      id: "7",
      title: "Numeric id",
      text: "Content field",
      date: "2018",
      tags: ["a", "b"],
      metadata: { lab: "x", source: "corpus.jsonl" },
    });
    expect(byId(loaded, "corpus.jsonl#6")).toMatchObject({
      authors: ["Ann Lee", "Bo Chen"],
      metadata: { date: "spring 2020" },
    });
    expect(loaded.errors.map((e) => [e.path, e.line])).toEqual([
      ["corpus.jsonl", 2],
      ["corpus.jsonl", 4],
    ]);
    expect(loaded.errors[1]!.message).toMatch(/no text field/);

    const array = await loadDocuments(join(folder, "array.json"));
    expect(array.documents.map((d) => [d.id, d.text, d.tags])).toEqual([
      ["a1", "first", undefined],
      ["a2", "second", ["t"]],
    ]);
    expect(array.errors).toEqual([{ path: "array.json", message: "item 2: not a JSON object" }]);
    const lines = await loadDocuments(join(folder, "lines.json"));
    expect(lines.documents.map((d) => d.id)).toEqual(["l1", "l2"]);
  });

  it("reads BibTeX: title, authors, year and month as date, doi, abstract as text, keywords as tags", async () => {
    const loaded = await loadDocuments(join(folder, "refs.bib"));
    expect(byId(loaded, "wadden2020fact")).toEqual({
      id: "wadden2020fact",
      title: "Fact or Fiction: Verifying Scientific Claims",
      text: "We introduce the task of scientific fact-checking.",
      authors: ["Wadden, David", "Lo, Kyle"],
      date: "2020-11",
      tags: ["fact checking", "claims"],
      doi: "10.18653/v1/2020.emnlp-main.609",
      metadata: { entryType: "article", citationKey: "wadden2020fact", journal: "EMNLP", source: "refs.bib" },
    });
    expect(byId(loaded, "noabstract")).toMatchObject({
      text: "A Book Without Abstract",
      metadata: { year: "circa 1900" },
    });
    expect(byId(loaded, "noabstract")).not.toHaveProperty("date");
    expect(loaded.errors).toEqual([
      {
        path: "refs.bib",
        line: 11,
        message: "a brace or quote opened in this entry is never closed; the entry is skipped",
      },
    ]);
  });

  it("reports unreadable files and missing paths per file, never failing the batch", async () => {
    const loaded = await loadDocuments(folder);
    expect(loaded.errors.find((e) => e.path === "dangling.md")?.message).toMatch(/ENOENT/);
    expect(loaded.documents.length).toBe(4 + 3 + 2 + 2 + 2);
    const missing = await loadDocuments(join(folder, "nope"));
    expect(missing.documents).toEqual([]);
    expect(missing.errors[0]!.message).toMatch(/ENOENT/);
  });

  it("loads into an index that finds them", async () => {
    const { documents } = await loadDocuments(folder);
    const index = await openSearchIndex({ path: ":memory:" });
    await index.add(documents, { collection: "repo" });
    const { results } = await index.search("scientific fact checking", { filters: { authors: ["Wadden"] } });
    expect(results.map((r) => [r.docId, r.date, r.authors])).toEqual([
      ["wadden2020fact", "2020-11", ["David Wadden", "Kyle Lo"]],
    ]);
    expect(
      (await index.search("phospholipids", { filters: { metadata: { course: "bio101" } } })).results[0]
        ?.docId,
    ).toBe("notes/membranes.md");
    await index.close();
  });
});

describe("loadDocuments and links", () => {
  it("reads a link to a file inside the folder, and refuses one that leads out of it", async () => {
    const base = mkdtempSync(join(tmpdir(), "quiver-links-"));
    try {
      mkdirSync(join(base, "course"));
      writeFileSync(join(base, "secret.md"), "# Private key\n\nnot course material");
      writeFileSync(join(base, "course", "lesson.md"), "# Lesson\n\nGenetic algorithms.");
      symlinkSync(join(base, "course", "lesson.md"), join(base, "course", "again.md"));
      symlinkSync(join(base, "secret.md"), join(base, "course", "escape.md"));
      const loaded = await loadDocuments(join(base, "course"));
      expect(loaded.documents.map((d) => d.id).sort()).toEqual(["again.md", "lesson.md"]);
      expect(loaded.errors).toEqual([
        { path: "escape.md", message: "links to a file outside the folder; not read" },
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
