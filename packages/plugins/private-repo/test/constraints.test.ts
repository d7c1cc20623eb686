import { seededRandom } from "@quiver/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { addDocuments } from "../src/internal/add-documents.js";
import { as, dataOf, repoCatalog, SAMPLE_FILES, tempDir, writeFiles } from "./support/repo.js";

// The co-scientist interface: a repository MUST honour every filter it is given. The spec's own
// shapes (`publication_date: {after, before}`, `search_terms` as a list) are applied; an unknown
// filter is refused with the accepted keys, never ignored.

let indexPath = "";
beforeAll(async () => {
  indexPath = tempDir();
  await addDocuments({
    indexPath,
    owner: "alice",
    collection: "papers",
    files: writeFiles(tempDir(), SAMPLE_FILES),
  });
});

const TERMS = "vitamin D bone statin telomere microbiome";

const search = (input: Record<string, unknown>) =>
  repoCatalog(indexPath).call("private_repo_search", { search_terms: TERMS, ...input }, as("alice"));

const ids = async (input: Record<string, unknown>) => {
  const r = await search(input);
  expect(r.status, r.message).toBe("success");
  return dataOf(r)
    .results.map((x: any) => x.id)
    .sort();
};

describe("the spec's filter shapes", () => {
  it("applies publication_date {after, before} as an inclusive date range", async () => {
    const all = await ids({});
    const after = await ids({ filters: { publication_date: { after: "2020-01-01" } } });
    expect(after).toEqual(["a2", "smith2021"]);
    expect(after.length).toBeLessThan(all.length);
    expect(await ids({ filters: { publication_date: { before: "2016" } } })).toEqual(["lee2015"]);
    expect(await ids({ filters: { publication_date: { after: "2019", before: "2021-12" } } })).toEqual(
      await ids({ filters: { date_from: "2019", date_to: "2021-12" } }),
    );
  });

  it("accepts search_terms as a list of strings, any of which may match", async () => {
    expect(await ids({ search_terms: ["telomere", "statin"] })).toEqual(["a1", "lee2015"]);
    expect(await ids({ search_terms: ["telomere"] })).toEqual(["lee2015"]);
  });

  it("refuses one bound given in both forms", async () => {
    const r = await search({ filters: { date_from: "2019", publication_date: { after: "2020" } } });
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toContain("filters.publication_date.after and filters.date_from");
  });
});

describe("unknown keys are invalid_input naming the accepted keys and the closest", () => {
  it("in filters, in publication_date and at the top level", async () => {
    const author = await search({ filters: { author: ["Jane Doe"] } });
    expect(author.status).toBe("error");
    expect(author.error?.kind).toBe("invalid_input");
    const text = JSON.stringify(author);
    expect(text).toContain("filters.author");
    expect(text).toMatch(/date_from, date_to, publication_date, authors, tags, collections/);
    expect(author.message).toContain('did you mean "authors"?');
    expect(author.suggestion).toContain('"filters":{"authors":["Jane Doe"]}');
    const since = await search({ filters: { publication_date: { since: "2020" } } });
    expect(since.error?.kind).toBe("invalid_input");
    expect(JSON.stringify(since)).toMatch(/after, before/);
    const top = await search({ max_result: 2 });
    expect(top.error?.kind).toBe("invalid_input");
    expect(JSON.stringify(top)).toContain("max_results");
  });
});

const LETTERS = "abcdefghijklmnopqrstuvwxyz_";
const KNOWN = ["date_from", "date_to", "publication_date", "authors", "tags", "collections"];
const YEARS = ["2014", "2016", "2018", "2019", "2020", "2021", "2023"];

describe("property: no filter is dropped in silence", () => {
  it("random filters: an unknown key is refused by name; known date bounds hold on every result", async () => {
    const seed = Number(process.env.REPO_PROPERTY_SEED ?? 20_261_124);
    console.log(`property seed ${seed} (set REPO_PROPERTY_SEED to replay)`);
    const r = seededRandom(seed);
    const catalog = repoCatalog(indexPath);
    for (let run = 0; run < 120; run++) {
      const filters: Record<string, unknown> = {};
      const range: Record<string, string> = {};
      if (r.next() < 0.5) range.after = r.pick(YEARS);
      if (r.next() < 0.5) range.before = r.pick(YEARS);
      if (Object.keys(range).length > 0) {
        if (r.next() < 0.5) filters.publication_date = range;
        else {
          if (range.after) filters.date_from = range.after;
          if (range.before) filters.date_to = range.before;
        }
      }
      let unknown: string | undefined;
      if (r.next() < 0.5) {
        let key = "";
        for (let j = 0, len = 3 + r.int(10); j < len; j++) key += r.pick([...LETTERS]);
        if (!KNOWN.includes(key)) {
          unknown = key;
          filters[key] = r.next() < 0.5 ? r.pick(YEARS) : [r.pick(YEARS)];
        }
      }
      const result = await catalog.call("private_repo_search", { search_terms: TERMS, filters }, as("alice"));
      const context = `run ${run} ${JSON.stringify(filters)} → ${result.status}: ${result.message}`;
      if (unknown) {
        expect(result.error?.kind, context).toBe("invalid_input");
        expect(JSON.stringify(result), context).toContain(`filters.${unknown}`);
        continue;
      }
      if (range.after && range.before && range.after > range.before) {
        expect(result.error?.kind, context).toBe("invalid_input");
        continue;
      }
      expect(result.status, context).toBe("success");
      for (const doc of dataOf(result).results) {
        expect(doc.date, context).toBeDefined();
        if (range.after) expect(doc.date.slice(0, 4) >= range.after, context).toBe(true);
        if (range.before) expect(doc.date.slice(0, 4) <= range.before, context).toBe(true);
      }
    }
  }, 60_000);
});
