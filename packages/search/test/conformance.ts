import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ChunkOptions,
  type SearchDocument,
  SearchError,
  type SearchFilters,
  type SearchIndex,
} from "../src/index.js";

/** Where one index lives in a store under test: a SQLite file, or a PostgreSQL index name. */
export interface IndexLocation {
  /** Opens the index at this location (again), with optional chunking. */
  open(chunk?: Partial<ChunkOptions>): Promise<SearchIndex>;
  /** Marks the stored index as written by another analyzer version, as a future release would. */
  breakVersion(): Promise<void>;
}

/** A store the conformance suite runs against. */
export interface StoreUnderTest {
  /** A new location, holding no index yet. */
  fresh(): IndexLocation;
}

const DOCS: SearchDocument[] = [
  {
    id: "mito",
    title: "Mitochondria and ATP synthesis",
    text: "Mitochondria produce most of the cell's ATP through oxidative phosphorylation.",
    authors: ["Doe, Jane", "Richard Roe"],
    date: "2019-05-10",
    tags: ["Biology", "energy"],
    metadata: { course: "bio101", week: 3, published: true, topics: ["cells", "energy"] },
  },
  {
    id: "photo",
    title: "Photosynthesis",
    text: "Chloroplasts convert light energy into chemical energy stored in glucose.",
    authors: ["Ann Lee"],
    date: "2021",
    tags: ["biology", "plants"],
    metadata: { course: "bio101", week: 4, published: false },
  },
  {
    id: "krebs",
    title: "The citric acid cycle",
    text: "The Krebs cycle in the mitochondrial matrix feeds electrons to the respiratory chain that makes ATP.",
    authors: ["Jane Doe"],
    date: "2020-11",
    tags: ["chemistry"],
    metadata: { course: "chem201", week: 3, published: true },
  },
  { id: "undated", title: "Enzymes", text: "Enzymes lower the activation energy of reactions." },
];

const ids = (response: { results: readonly { docId: string }[] }) => response.results.map((r) => r.docId);

/**
 * The behaviour every store of `SearchIndex` must show: the SQLite and PostgreSQL stores both run it, with the
 * same expectations (ranking included).
 */
export function searchIndexConformance(store: StoreUnderTest): void {
  describe("SearchIndex", () => {
    let index: SearchIndex;
    beforeEach(async () => {
      index = await store.fresh().open();
      await index.add(DOCS);
    });
    afterEach(async () => {
      await index.close();
    });

    it("ranks documents for a query and returns the chunk, fields, score and highlights", async () => {
      const { results, total } = await index.search("How do mitochondria make ATP?");
      expect(ids({ results })).toEqual(["mito", "krebs"]);
      expect(total).toBe(2);
      const best = results[0]!;
      expect(best).toMatchObject({
        id: "mito#0",
        docId: "mito",
        collection: "default",
        chunk: 0,
        chunks: 1,
        title: "Mitochondria and ATP synthesis",
        authors: ["Jane Doe", "Richard Roe"],
        date: "2019-05-10",
        tags: ["Biology", "energy"],
        metadata: { course: "bio101", week: 3, published: true, topics: ["cells", "energy"] },
      });
      expect(best.score).toBeGreaterThan(results[1]!.score);
      expect(best.score).toBeLessThanOrEqual(1);
      expect(results[1]!.score).toBeGreaterThan(0);
      expect(best.highlights.map((h) => best.text.slice(h.start, h.end))).toEqual(["Mitochondria", "ATP"]);
      expect(best).not.toHaveProperty("doi");
    });

    it("matches any query term (OR), not all of them", async () => {
      expect(ids(await index.search("glucose mitochondria zebrafish enzymes")).sort()).toEqual([
        "mito",
        "photo",
        "undated",
      ]);
    });

    it("stems and folds: plural, case and inflections meet", async () => {
      expect(ids(await index.search("ENZYME"))).toEqual(["undated"]);
      expect(ids(await index.search("converting chloroplast"))).toEqual(["photo"]);
    });

    it("returns an empty result, without error, for empty and stop-word-only queries", async () => {
      for (const query of ["", "   ", "the of and", "?!", "*"]) {
        expect(await index.search(query)).toEqual({ results: [], total: 0 });
      }
    });

    it("never lets query text act as FTS5 syntax", async () => {
      const attempts = [
        '"a" OR *',
        "NEAR(",
        "NEAR(mitochondria glucose, 1)",
        'mitochondria"',
        '"unterminated',
        "-mitochondria",
        "title:enzymes",
        "body:x OR title:y",
        "mito*",
        "^mitochondria",
        "a AND NOT b",
        "(((",
        "{title body}: atp",
        "'; DROP TABLE documents; --",
        "\u0000\uFFFF\uD800",
      ];
      for (const query of attempts) {
        const response = await index.search(query);
        expect(response.results.length).toBeLessThanOrEqual(DOCS.length);
      }
      // "-mitochondria" is the word, not an exclusion; "mito*" is not a prefix query; "title:" is not a column.
      expect(ids(await index.search("-mitochondria"))).toContain("mito");
      expect(ids(await index.search("mito*"))).toEqual([]);
      expect(ids(await index.search("title:enzymes"))).toEqual(["undated"]);
      expect((await index.stats()).documents).toBe(DOCS.length);
    });

    it("re-adding a document id replaces it", async () => {
      const result = await index.add([
        { id: "mito", title: "Replaced", text: "Ribosomes translate messenger RNA." },
      ]);
      expect(result).toEqual({ added: 0, replaced: 1, chunks: 1 });
      expect(ids(await index.search("oxidative phosphorylation"))).toEqual([]);
      const { results } = await index.search("ribosomes");
      expect(results.map((r) => [r.docId, r.title])).toEqual([["mito", "Replaced"]]);
      expect(results[0]).not.toHaveProperty("authors");
      expect(await index.count({ filters: { authors: ["Roe"] } })).toBe(0);
      expect((await index.stats()).documents).toBe(DOCS.length);
    });

    it("removes documents and reports how many", async () => {
      expect(await index.remove(["mito", "missing"])).toBe(1);
      expect(await index.remove("mito")).toBe(0);
      expect(ids(await index.search("ATP"))).toEqual(["krebs"]);
      expect(await index.count()).toBe(3);
    });

    it("filters by date range, treating partial dates as periods", async () => {
      const search = (filters: SearchFilters) =>
        index.search("energy ATP glucose enzymes", { filters, topK: 10 });
      expect(ids(await search({ dateFrom: "2020" })).sort()).toEqual(["krebs", "photo"]);
      expect(ids(await search({ dateTo: "2019-12-31" }))).toEqual(["mito"]);
      expect(ids(await search({ dateFrom: "2020-11-15", dateTo: "2020-11-30" }))).toEqual([]);
      expect(ids(await search({ dateFrom: "2020-11", dateTo: "2020-11" }))).toEqual(["krebs"]);
      expect(ids(await search({ dateFrom: "2019-01-01", dateTo: "2021" })).sort()).toEqual([
        "krebs",
        "mito",
        "photo",
      ]);
    });

    it("filters by authors (any of; full or last name, any case or accent) and tags (any of)", async () => {
      const search = (filters: SearchFilters) => index.search("energy ATP glucose", { filters });
      expect(ids(await search({ authors: ["jane doe"] })).sort()).toEqual(["krebs", "mito"]);
      expect(ids(await search({ authors: ["Doe"] })).sort()).toEqual(["krebs", "mito"]);
      expect(ids(await search({ authors: ["LEE", "Nobody Else"] }))).toEqual(["photo"]);
      expect(ids(await search({ authors: ["Jane"] }))).toEqual([]);
      expect(ids(await search({ tags: ["BIOLOGY"] })).sort()).toEqual(["mito", "photo"]);
      expect(ids(await search({ tags: ["plants", "chemistry"] })).sort()).toEqual(["krebs", "photo"]);
      expect(ids(await search({ tags: [] }))).toEqual([]);
    });

    it("filters by metadata equality, lists meaning any of, list fields matching any element", async () => {
      const search = (metadata: NonNullable<SearchFilters["metadata"]>) =>
        index.search("energy ATP glucose", { filters: { metadata } });
      expect(ids(await search({ course: "bio101" })).sort()).toEqual(["mito", "photo"]);
      expect(ids(await search({ week: 3 })).sort()).toEqual(["krebs", "mito"]);
      expect(ids(await search({ week: "3" }))).toEqual([]); // types are kept: "3" is not 3
      expect(ids(await search({ published: false }))).toEqual(["photo"]);
      expect(ids(await search({ course: ["chem201", "bio999"] }))).toEqual(["krebs"]);
      expect(ids(await search({ topics: "cells" }))).toEqual(["mito"]);
      expect(ids(await search({ course: "bio101", week: 4 }))).toEqual(["photo"]);
      expect(ids(await search({ "weird key'\"); --": "x" }))).toEqual([]);
    });

    it("counts documents in a scope, with or without a query", async () => {
      expect(await index.count()).toBe(4);
      expect(await index.count({ query: "ATP" })).toBe(2);
      expect(await index.count({ query: "the" })).toBe(0);
      expect(await index.count({ filters: { metadata: { week: 3 } } })).toBe(2);
      expect(await index.count({ collections: [] })).toBe(0);
    });

    it("rejects invalid documents before writing any of them", async () => {
      const bad = [
        { id: "ok", text: "fine" },
        { id: "", text: "no id" },
      ];
      await expect(index.add(bad)).rejects.toSatisfy(
        (e: unknown) =>
          SearchError.isInstance(e) && e.code === "invalid_document" && /document 1/.test(e.message),
      );
      await expect(index.add([{ id: "d", text: "x", date: "last Tuesday" }])).rejects.toThrow(/ISO 8601/);
      await expect(index.add([{ id: "m", text: "x", metadata: { n: Number.NaN } }])).rejects.toThrow(
        /metadata\.n/,
      );
      await expect(index.add([{ id: "t", text: 42 } as unknown as SearchDocument])).rejects.toThrow(/text/);
      expect(await index.count()).toBe(4);
    });

    it("validates options with clear errors", async () => {
      await expect(index.search("atp", { topK: 0 })).rejects.toThrow(/topK/);
      await expect(index.search("atp", { topK: 1001 })).rejects.toThrow(/topK/);
      await expect(index.search("atp", { filters: { dateFrom: "yesterday" } })).rejects.toThrow(/dateFrom/);
      await expect(index.search("atp", { collections: "bio" as unknown as string[] })).rejects.toThrow(
        /collections/,
      );
      await expect(index.add([], { collection: "" })).rejects.toThrow(/collection/);
    });

    it("reports progress per batch and can return every matching chunk", async () => {
      const long = Array.from(
        { length: 30 },
        (_, i) => `Sentence ${i} talks about ribosomes and proteins.`,
      ).join(" ");
      const calls: [number, number][] = [];
      const many = Array.from({ length: 450 }, (_, i) => ({
        id: `n${i}`,
        text: `Note ${i} about proteins.`,
      }));
      await index.add([...many, { id: "long", title: "Ribosomes", text: long }], {
        onProgress: (done, total) => calls.push([done, total]),
      });
      expect(calls).toEqual([
        [200, 451],
        [400, 451],
        [451, 451],
      ]);
      const small = await store.fresh().open({ size: 40, overlap: 10 });
      await small.add([{ id: "long", title: "Ribosomes", text: long }]);
      const grouped = await small.search("ribosomes");
      expect(grouped.results).toHaveLength(1);
      const all = await small.search("ribosomes", { groupByDocument: false, topK: 100 });
      expect(all.results.length).toBeGreaterThan(3);
      expect(all.total).toBe(all.results.length);
      expect(new Set(all.results.map((r) => r.id)).size).toBe(all.results.length);
      expect(all.results.every((r) => r.docId === "long" && r.chunks === all.results.length)).toBe(true);
      expect((await small.stats()).chunking).toEqual({ size: 40, overlap: 10 });
      await small.close();
    });

    it("searches with and without feedback", async () => {
      const plain = await index.search("ATP mitochondria", { feedback: false });
      const expanded = await index.search("ATP mitochondria");
      expect(ids(plain)).toEqual(["mito", "krebs"]);
      expect(ids(expanded)).toEqual(["mito", "krebs"]);
    });

    it("lists collections and stats", async () => {
      await index.add([{ id: "x", text: "Quarks and gluons" }], { collection: "physics" });
      expect(await index.collections()).toEqual([
        { name: "default", documents: 4, chunks: 4 },
        { name: "physics", documents: 1, chunks: 1 },
      ]);
      const stats = await index.stats();
      expect(stats).toMatchObject({
        documents: 5,
        chunks: 5,
        collections: 2,
        chunking: { size: 300, overlap: 50 },
      });
      expect(stats.terms).toBeGreaterThan(20);
      expect(await index.removeCollection("physics")).toBe(1);
      expect(await index.collections()).toHaveLength(1);
    });
  });

  describe("collections", () => {
    it("never return a document from a collection that was not passed", async () => {
      const index = await store.fresh().open();
      const secret = (owner: string) => ({
        id: "shared-id",
        title: `${owner}'s unpublished results`,
        text: `The ${owner} lab found that telomerase activity predicts relapse.`,
        metadata: { owner },
      });
      await index.add([secret("alice"), { id: "a2", text: "Alice's telomerase notes" }], {
        collection: "alice",
      });
      await index.add([secret("bob")], { collection: "bob" });
      await index.add([{ id: "pub", text: "Public review of telomerase" }], { collection: "public" });

      const query = "telomerase activity relapse unpublished results";
      for (const allowed of [["alice"], ["bob"], ["public"], ["alice", "public"], ["bob", "public"]]) {
        for (const feedback of [true, false]) {
          for (const groupByDocument of [true, false]) {
            const { results, total } = await index.search(query, {
              collections: allowed,
              feedback,
              groupByDocument,
              topK: 50,
            });
            expect(results.length).toBeGreaterThan(0);
            for (const r of results) expect(allowed).toContain(r.collection);
            expect(total).toBe(results.length);
          }
        }
        expect(await index.count({ collections: allowed, query })).toBe(
          (await index.search(query, { collections: allowed, topK: 50 })).results.length,
        );
      }
      // The same id lives independently in each collection.
      const alice = await index.search("unpublished", { collections: ["alice"] });
      expect(alice.results.map((r) => [r.collection, r.docId, r.metadata.owner])).toEqual([
        ["alice", "shared-id", "alice"],
      ]);
      // An empty list means no collection at all, never "all of them"; unknown collections match nothing.
      expect(await index.search(query, { collections: [] })).toEqual({ results: [], total: 0 });
      expect(await index.search(query, { collections: ["carol"] })).toEqual({ results: [], total: 0 });
      // Collection names are values, not SQL.
      expect(await index.search(query, { collections: ["alice' OR '1'='1"] })).toEqual({
        results: [],
        total: 0,
      });
      // Removing from one collection leaves the other's document with the same id.
      expect(await index.remove("shared-id", { collection: "bob" })).toBe(1);
      expect((await index.search(query, { collections: ["alice"] })).results.map((r) => r.docId)).toContain(
        "shared-id",
      );
      expect(await index.search(query, { collections: ["bob"] })).toEqual({ results: [], total: 0 });
      await index.close();
    });
  });

  describe("persistence", () => {
    it("keeps documents and chunking across reopen, and refuses another version's index", async () => {
      const location = store.fresh();
      const first = await location.open({ size: 120, overlap: 20 });
      await first.add(DOCS, { collection: "c" });
      await first.close();
      await expect(first.search("atp")).rejects.toSatisfy(
        (e: unknown) => SearchError.isInstance(e) && e.code === "closed",
      );

      const second = await location.open();
      expect((await second.stats()).chunking).toEqual({ size: 120, overlap: 20 });
      expect(ids(await second.search("ATP", { collections: ["c"] }))).toEqual(["mito", "krebs"]);
      await second.close();

      await location.breakVersion();
      await expect(location.open()).rejects.toSatisfy(
        (e: unknown) =>
          SearchError.isInstance(e) && e.code === "incompatible_index" && /Rebuild/.test(e.message),
      );
    });

    it("sees documents another connection added to the same index", async () => {
      const location = store.fresh();
      const reader = await location.open();
      expect(await reader.count()).toBe(0);
      expect((await reader.search("ATP")).results).toEqual([]);
      const writer = await location.open();
      await writer.add(DOCS);
      await writer.close();
      const { results } = await reader.search("ATP");
      expect(ids({ results })).toEqual(["mito", "krebs"]);
      expect(results[0]!.score).toBeGreaterThan(0);
      await reader.close();
    });

    it("serialises concurrent adds", async () => {
      const index = await store.fresh().open();
      const batches = Array.from({ length: 5 }, (_, b) =>
        Array.from({ length: 250 }, (_, i) => ({ id: `d${b}-${i}`, text: `Document ${i} of batch ${b}` })),
      );
      const results = await Promise.all(batches.map((docs, b) => index.add(docs, { collection: `b${b}` })));
      expect(results.map((r) => r.added)).toEqual([250, 250, 250, 250, 250]);
      expect(await index.count()).toBe(1250);
      await index.close();
    });
  });
}
