import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seedPluginDemo } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createPrivateRepoPlugin } from "../src/index.js";
import { as, dataOf, repoCatalog, tempDir } from "./support/repo.js";

const FIXTURES = new URL("./fixtures/scifact/", import.meta.url);

describe("the demo step (400 SciFact abstracts and 5 lab abstracts shipped in demo/)", () => {
  it("builds the demo principal's collection, reuses it, and serves real answers to that principal only", async () => {
    const cacheDir = tempDir();
    const first = await seedPluginDemo(createPrivateRepoPlugin(), { cacheDir, principal: "scientist" });
    const indexPath = join(cacheDir, "repository");
    expect(first.options).toEqual({ indexPath });
    expect(first.message).toMatch(
      /^built a demo repository of 400 SciFact abstracts as scientist\/scifact and 5 lab abstracts as scientist\/lab_publications \(\d+ chunks\) at .*; call it as principal "scientist"$/,
    );
    expect(first.message).toContain(indexPath);
    const again = await seedPluginDemo(createPrivateRepoPlugin(), { cacheDir, principal: "scientist" });
    expect(again.message).toBe(`demo repository reused from ${indexPath} (owner "scientist")`);
    const other = await seedPluginDemo(createPrivateRepoPlugin(), { cacheDir, principal: "demo" });
    expect(other.message).toMatch(
      /^built a demo repository .* as demo\/scifact and 5 lab abstracts as demo\/lab_publications/,
    );

    const catalog = repoCatalog(indexPath);
    const hit = await catalog.call(
      "private_repo_search",
      { search_terms: "cerebral white matter diffusion newborn", max_results: 3 },
      as("demo"),
    );
    expect(hit.status, hit.message).toBe("success");
    expect(dataOf(hit).results[0]).toMatchObject({ collection: "scifact", id: "4983" });
    const outsider = await catalog.call("private_repo_search", { search_terms: "white matter" }, as("alice"));
    expect(dataOf(outsider).total_count).toBe(0);
  });

  it("has the co-scientist's Lab_Publications: CRISPR base editing in the liver, dated after 2020", async () => {
    const cacheDir = tempDir();
    const { options } = await seedPluginDemo(createPrivateRepoPlugin(), { cacheDir });
    const catalog = repoCatalog(String(options.indexPath));
    const r = await catalog.call(
      "private_repo_search",
      {
        search_terms: ["CRISPR", "base editing", "liver"],
        filters: { collections: ["Lab_Publications"], publication_date: { after: "2020-01-01" } },
      },
      as("demo"),
    );
    expect(r.status, r.message).toBe("success");
    const results = dataOf(r).results as Array<{ title: string; collection: string; date: string }>;
    expect(results.length).toBe(5);
    expect(results.slice(0, 2).map((x) => x.title)).toEqual([
      "Optimized base editing in hepatocytes",
      "CRISPR screens in liver organoids",
    ]);
    for (const x of results) {
      expect(x.collection).toBe("lab_publications");
      expect(x.date > "2020-01-01").toBe(true);
    }
  });

  it("answers the first 100 SciFact training claims with a judged-relevant abstract in the top 10 for most", async () => {
    const cacheDir = tempDir();
    const { options } = await seedPluginDemo(createPrivateRepoPlugin(), { cacheDir });
    const catalog = repoCatalog(String(options.indexPath));
    const relevant = new Map<string, Set<string>>();
    for (const line of readFileSync(new URL("qrels.tsv", FIXTURES), "utf8").split("\n").slice(1)) {
      const [q, d] = line.split("\t");
      if (q && d) relevant.set(q, (relevant.get(q) ?? new Set()).add(d));
    }
    const queries = readFileSync(new URL("queries.jsonl", FIXTURES), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { _id: string; text: string });
    let hits = 0;
    for (const q of queries) {
      const r = await catalog.call(
        "private_repo_search",
        { search_terms: q.text, max_results: 10 },
        as("demo"),
      );
      expect(r.status, r.message).toBe("success");
      if (dataOf(r).results.some((x: { id: string }) => relevant.get(q._id)?.has(x.id))) hits++;
    }
    console.log(
      `SciFact demo subset: a relevant abstract in the top 10 for ${hits} of ${queries.length} claims`,
    );
    expect(hits).toBeGreaterThanOrEqual(85);
  }, 60_000);

  it("is skipped when the user chose a repository", () => {
    expect(createPrivateRepoPlugin().demo?.skipWhenSet).toEqual(["QUIVER_PRIVATE_REPO", "DATABASE_URL"]);
  });
});
