import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describePluginConformance, describePluginPackage } from "@quiver/testing";
import { beforeAll, describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };
import privateRepoPlugin, {
  formatCitation,
  listCollections,
  readAuditLog,
  shareCollection,
  unshareCollection,
} from "../src/index.js";
import { type AddProgress, addDocuments } from "../src/internal/add-documents.js";
import { as, dataOf, repoCatalog, SAMPLE_FILES, tempDir, writeFiles } from "./support/repo.js";

let conformanceRepo = "";
describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(privateRepoPlugin, {
  options: () => {
    // The conformance principal's import folder holds the folder private_repo_add_folder's example names.
    conformanceRepo ||= writeFiles(tempDir(), {
      "imports/conformance/papers/crispr.md": "# CRISPR off-target effects\n\nGuide RNAs with mismatches.\n",
    });
    return { indexPath: conformanceRepo };
  },
  // The store "down": a repository folder that cannot be created (its parent is a file).
  downOptions: () => {
    const parent = tempDir();
    writeFileSync(join(parent, "not-a-folder"), "x");
    return { indexPath: join(parent, "not-a-folder", "repo") };
  },
  session: { id: "conformance", principal: "conformance" },
});

/** A repository with alice's "papers" (every sample file) and bob's "lab" (one private note). */
const build = async () => {
  const src = writeFiles(tempDir(), SAMPLE_FILES);
  const bobSrc = writeFiles(tempDir(), {
    "secret.md":
      "---\nauthors: [Bob Stone]\ndate: 2020-02-02\ntags: [nutrition]\n---\n# Unpublished vitamin D trial\n\nOur unpublished trial of vitamin D in bone loss: zebrafish marker qqbobsecret.\n",
  });
  const indexPath = tempDir();
  await addDocuments({ indexPath, owner: "alice", collection: "papers", files: src });
  await addDocuments({ indexPath, owner: "bob", collection: "lab", files: bobSrc });
  return { indexPath, src };
};

describe("plugin shape", () => {
  it("is a v1 plugin with private_repo_search, private_repo_list_collections and private_repo_add_folder", () => {
    expect(privateRepoPlugin.id).toBe("private-repo");
    expect(privateRepoPlugin.version).toBe(pkg.version);
    expect(privateRepoPlugin.tools.map((t) => t.name)).toEqual([
      "private_repo_search",
      "private_repo_list_collections",
      "private_repo_add_folder",
    ]);
    expect(privateRepoPlugin.tools.every((t) => t.category === "private_repository")).toBe(true);
  });
});

describe("addDocuments (what `quiver private-repo add` runs)", () => {
  it("adds Markdown, text, BibTeX and JSON Lines with their fields, reports progress and bad records", async () => {
    const src = writeFiles(tempDir(), SAMPLE_FILES);
    const indexPath = tempDir();
    const progress: AddProgress[] = [];
    const r = await addDocuments({
      indexPath,
      owner: "alice",
      collection: "Papers",
      files: [src],
      onProgress: (p) => progress.push(p),
    });
    expect(r).toMatchObject({ owner: "alice", collection: "papers", documents: 6, added: 6, replaced: 0 });
    expect(r.errors).toEqual([
      { path: "data/abstracts.jsonl", line: 2, message: expect.stringContaining("JSON") },
    ]);
    expect(progress[0]).toMatchObject({ phase: "loading", done: 0, total: 1 });
    expect(progress.at(-1)).toMatchObject({ phase: "indexing", done: 6, total: 6 });
    const again = await addDocuments({
      indexPath,
      owner: "alice",
      collection: "papers",
      files: `${src}/refs/papers.bib`,
    });
    expect(again).toMatchObject({ added: 0, replaced: 2 });
    expect(await listCollections({ indexPath, principal: "alice" })).toEqual([
      { collection: "papers", owner: "alice", name: "papers", access: "owner", documents: 6 },
    ]);
    const log = await readAuditLog({ indexPath });
    expect(log.filter((e) => e.action === "add")).toHaveLength(2);
  });

  it("refuses an invalid collection name or owner", async () => {
    const indexPath = tempDir();
    await expect(
      addDocuments({ indexPath, owner: "alice", collection: "../etc", files: "x" }),
    ).rejects.toThrow(/not a valid collection name/);
    await expect(addDocuments({ indexPath, owner: " ", collection: "ok", files: "x" })).rejects.toThrow(
      /owner/,
    );
  });
});

describe("private_repo_search", () => {
  let indexPath = "";
  beforeAll(async () => {
    ({ indexPath } = await build());
  });

  it("ranks with BM25 and returns scores, passages, formatted citations and DOIs", async () => {
    const r = await repoCatalog(indexPath).call(
      "private_repo_search",
      { search_terms: "gut microbiome insulin resistance" },
      as("alice"),
    );
    expect(r.status).toBe("success");
    const [first, ...rest] = dataOf(r).results;
    expect(first).toMatchObject({
      title: "Gut microbiome composition and insulin resistance",
      collection: "papers",
      authors: ["John Smith", "Priya Kumar"],
      doi: "10.1000/gut.2021",
      doi_url: "https://doi.org/10.1000/gut.2021",
      citation:
        "Smith, J., & Kumar, P. (2021). Gut microbiome composition and insulin resistance. https://doi.org/10.1000/gut.2021",
      source: "papers.bib",
    });
    expect(first.snippet).toContain("insulin resistance");
    expect(first.score).toBeGreaterThan(0);
    expect(first.score).toBeLessThanOrEqual(1);
    for (const other of rest) expect(other.score).toBeLessThanOrEqual(first.score);
    expect(r.instruction).toMatch(/cite/);
  });

  it("filters on dates, authors and tags", async () => {
    const catalog = repoCatalog(indexPath);
    const ids = async (filters: Record<string, unknown>) =>
      dataOf(
        await catalog.call(
          "private_repo_search",
          { search_terms: "vitamin D bone statin telomere microbiome", filters },
          as("alice"),
        ),
      )
        .results.map((x: any) => x.id)
        .sort();
    expect(await ids({ date_from: "2019", date_to: "2021-12" })).toEqual(["notes/vitamin-d.md", "smith2021"]);
    expect(await ids({ date_to: "2016" })).toEqual(["lee2015"]);
    expect(await ids({ authors: ["Jane Doe"] })).toEqual(["a2", "notes/vitamin-d.md"]);
    expect(await ids({ authors: ["Kumar"] })).toEqual(["smith2021"]);
    expect(await ids({ tags: ["NUTRITION"] })).toEqual(["a2", "notes/vitamin-d.md"]);
    expect(await ids({ tags: ["nutrition"], date_from: "2020" })).toEqual(["a2"]);
  });

  it("rejects malformed or inverted dates with invalid_input", async () => {
    const catalog = repoCatalog(indexPath);
    const bad = await catalog.call(
      "private_repo_search",
      { search_terms: "x", filters: { date_from: "May 2019" } },
      as("alice"),
    );
    expect(bad.error?.kind).toBe("invalid_input");
    expect(bad.message).toContain("filters.date_from");
    const inverted = await catalog.call(
      "private_repo_search",
      { search_terms: "x", filters: { date_from: "2022", date_to: "2019" } },
      as("alice"),
    );
    expect(inverted.error?.kind).toBe("invalid_input");
  });

  it("respects max_results, reports total_count and suggests how to narrow or widen", async () => {
    const catalog = repoCatalog(indexPath);
    const many = dataOf(
      await catalog.call(
        "private_repo_search",
        { search_terms: "vitamin statin telomere microbiome lab", max_results: 2 },
        as("alice"),
      ),
    );
    expect(many.returned).toBe(2);
    expect(many.total_count).toBeGreaterThan(2);
    expect(many.suggestions.join(" ")).toMatch(/Narrow with filters/);
    const none = await catalog.call(
      "private_repo_search",
      { search_terms: "quantum chromodynamics", filters: { tags: ["physics"] } },
      as("alice"),
    );
    expect(none.status).toBe("success");
    expect(dataOf(none).total_count).toBe(0);
    expect(dataOf(none).suggestions.join(" ")).toMatch(/Remove or widen the filters/);
    expect(none.message).toMatch(/No documents match/);
  });
});

describe("access control", () => {
  it("needs a principal: an anonymous call is access_denied and logged", async () => {
    const { indexPath } = await build();
    const r = await repoCatalog(indexPath).call(
      "private_repo_search",
      { search_terms: "vitamin" },
      as(undefined),
    );
    expect(r.status).toBe("access_denied");
    expect(r.error?.kind).toBe("access_denied");
    const log = await readAuditLog({ indexPath });
    expect(log.at(-1)).toMatchObject({
      principal: null,
      action: "search",
      outcome: "denied",
      detail: "no principal",
    });
    const list = await repoCatalog(indexPath).call(
      "private_repo_list_collections",
      { scope: "all" },
      as(undefined),
    );
    expect(list.status).toBe("access_denied");
  });

  it("shows a scientist only their own collections", async () => {
    const { indexPath } = await build();
    const catalog = repoCatalog(indexPath);
    const alice = await catalog.call(
      "private_repo_search",
      { search_terms: "unpublished vitamin D trial zebrafish" },
      as("alice"),
    );
    expect(JSON.stringify(alice)).not.toContain("qqbobsecret");
    expect(JSON.stringify(alice)).not.toContain("Unpublished");
    expect(dataOf(alice).searched_collections).toEqual(["papers"]);
    const bob = await catalog.call("private_repo_search", { search_terms: "qqbobsecret" }, as("bob"));
    expect(dataOf(bob).results.map((x: any) => x.collection)).toEqual(["lab"]);
    const carol = await catalog.call("private_repo_search", { search_terms: "vitamin" }, as("carol"));
    expect(dataOf(carol)).toMatchObject({ results: [], total_count: 0, searched_collections: [] });
    expect(dataOf(carol).suggestions[0]).toMatch(/no collections yet/);
  });

  it("shows a collection shared explicitly, as owner/name, until the share is withdrawn", async () => {
    const { indexPath } = await build();
    const catalog = repoCatalog(indexPath);
    await shareCollection({ indexPath, owner: "bob", collection: "lab", grantee: "alice" });
    const shared = dataOf(
      await catalog.call("private_repo_search", { search_terms: "qqbobsecret" }, as("alice")),
    );
    expect(shared.results.map((x: any) => [x.collection, x.title])).toEqual([
      ["bob/lab", "Unpublished vitamin D trial"],
    ]);
    const only = dataOf(
      await catalog.call(
        "private_repo_search",
        { search_terms: "vitamin", filters: { collections: ["bob/lab"] } },
        as("alice"),
      ),
    );
    expect(only.searched_collections).toEqual(["bob/lab"]);
    const listed = dataOf(await catalog.call("private_repo_list_collections", { scope: "all" }, as("alice")));
    expect(listed.collections).toEqual([
      { collection: "papers", owner: "alice", access: "owner", documents: 6, shared_with: [] },
      { collection: "bob/lab", owner: "bob", access: "shared", documents: 1 },
    ]);
    // Called bare, it lists everything the caller may see: scope defaults to "all".
    const bare = await catalog.call("private_repo_list_collections", {}, as("alice"));
    expect(bare.status).toBe("success");
    expect(dataOf(bare).collections).toEqual(listed.collections);
    const bobList = dataOf(await catalog.call("private_repo_list_collections", { scope: "all" }, as("bob")));
    expect(bobList.collections).toEqual([
      { collection: "lab", owner: "bob", access: "owner", documents: 1, shared_with: ["alice"] },
    ]);
    const onlyShared = dataOf(
      await catalog.call("private_repo_list_collections", { scope: "shared" }, as("alice")),
    );
    expect(onlyShared.collections.map((c: any) => c.collection)).toEqual(["bob/lab"]);
    expect(await unshareCollection({ indexPath, owner: "bob", collection: "lab", grantee: "alice" })).toBe(
      true,
    );
    const after = await catalog.call(
      "private_repo_search",
      { search_terms: "unpublished zebrafish" },
      as("alice"),
    );
    expect(JSON.stringify(after)).not.toContain("qqbobsecret");
    expect(dataOf(after).total_count).toBe(0);
    // Sharing with carol does not give dave anything.
    await shareCollection({ indexPath, owner: "bob", collection: "lab", grantee: "carol" });
    expect(
      dataOf(await catalog.call("private_repo_search", { search_terms: "qqbobsecret" }, as("dave")))
        .total_count,
    ).toBe(0);
  });

  it("shares with a group (group:<name>): its members read it, others do not, and no principal may pose as the group", async () => {
    const { indexPath } = await build();
    const catalog = repoCatalog(indexPath);
    await shareCollection({ indexPath, owner: "bob", collection: "lab", grantee: "group:zebrafish-lab" });
    const member = (groups: string[]) => ({ session: { id: "s-g", principal: "alice", groups } });
    const inGroup = dataOf(
      await catalog.call("private_repo_search", { search_terms: "qqbobsecret" }, member(["zebrafish-lab"])),
    );
    expect(inGroup.results.map((x: any) => x.collection)).toEqual(["bob/lab"]);
    const listed = dataOf(
      await catalog.call("private_repo_list_collections", { scope: "shared" }, member(["zebrafish-lab"])),
    );
    expect(listed.collections.map((c: any) => c.collection)).toEqual(["bob/lab"]);
    const otherGroup = await catalog.call(
      "private_repo_search",
      { search_terms: "qqbobsecret" },
      member(["mouse-lab"]),
    );
    expect(dataOf(otherGroup).total_count).toBe(0);
    expect(JSON.stringify(otherGroup)).not.toContain("Unpublished vitamin D");
    const posing = await catalog.call(
      "private_repo_search",
      { search_terms: "qqbobsecret" },
      as("group:zebrafish-lab"),
    );
    expect(posing.status).toBe("access_denied");
    expect(JSON.stringify(posing)).not.toContain("Unpublished vitamin D");
  });

  it("logs the caller's OAuth client id with a denied attempt", async () => {
    const { indexPath } = await build();
    await repoCatalog(indexPath).call(
      "private_repo_search",
      { search_terms: "vitamin", filters: { collections: ["bob/lab"] } },
      { session: { id: "s-c", principal: "alice", clientId: "lab-notebook-app" } },
    );
    expect((await readAuditLog({ indexPath })).at(-1)).toMatchObject({
      principal: "alice",
      action: "search",
      target: "bob/lab",
      outcome: "denied",
      clientId: "lab-notebook-app",
    });
  });

  it("denies another scientist's collection with access_denied, logs the attempt, and says the same whether it exists or not", async () => {
    const { indexPath } = await build();
    const catalog = repoCatalog(indexPath);
    const real = await catalog.call(
      "private_repo_search",
      { search_terms: "vitamin", filters: { collections: ["bob/lab"] } },
      as("alice"),
    );
    const fake = await catalog.call(
      "private_repo_search",
      { search_terms: "vitamin", filters: { collections: ["bob/lbb"] } },
      as("alice"),
    );
    expect(real.status).toBe("access_denied");
    expect(real.error?.kind).toBe("access_denied");
    expect(fake.status).toBe("access_denied");
    expect(real.message.replace("bob/lab", "X")).toBe(fake.message.replace("bob/lbb", "X"));
    expect(real.suggestion).toBe(fake.suggestion);
    expect(real.suggestion).toContain("papers");
    expect(real.suggestion).not.toContain("lab");
    const denied = (await readAuditLog({ indexPath })).filter((e) => e.outcome === "denied");
    expect(denied.map((e) => [e.principal, e.action, e.target, e.detail])).toEqual([
      ["alice", "search", "bob/lab", "bob/lab: exists, not shared"],
      ["alice", "search", "bob/lbb", "bob/lbb: no such collection"],
    ]);
  });

  it("answers an unknown own collection with invalid_input, suggesting only readable names", async () => {
    const { indexPath } = await build();
    const r = await repoCatalog(indexPath).call(
      "private_repo_search",
      { search_terms: "x", filters: { collections: ["paper"] } },
      as("alice"),
    );
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.suggestion).toBe('Did you mean "papers"?');
    const bob = await repoCatalog(indexPath).call(
      "private_repo_search",
      { search_terms: "x", filters: { collections: ["paper"] } },
      as("bob"),
    );
    expect(bob.suggestion).not.toContain("papers");
    expect(bob.suggestion).toContain("lab");
  });

  it("keeps counts and scores independent of other scientists' documents", async () => {
    const { indexPath, src } = await build();
    const catalog = repoCatalog(indexPath);
    const before = dataOf(
      await catalog.call("private_repo_search", { search_terms: "vitamin D bone density" }, as("alice")),
    );
    // Bob adds many documents full of the same words: alice's counts and scores must not move.
    await addDocuments({ indexPath, owner: "bob", collection: "lab", files: src });
    await addDocuments({
      indexPath,
      owner: "bob",
      collection: "more",
      files: writeFiles(tempDir(), { "v.md": "# vitamin vitamin bone density density\n\nvitamin D bone" }),
    });
    const after = dataOf(
      await catalog.call("private_repo_search", { search_terms: "vitamin D bone density" }, as("alice")),
    );
    expect(after).toEqual(before);
  });

  it("keeps cached results per principal when a host enables caching", async () => {
    const { indexPath } = await build();
    await shareCollection({ indexPath, owner: "bob", collection: "lab", grantee: "alice" });
    const catalog = repoCatalog(indexPath, { policies: { "*": { cache: { ttl: "1h" } } } });
    const input = { search_terms: "vitamin D zebrafish trial" };
    const alice1 = await catalog.call("private_repo_search", input, as("alice"));
    const alice2 = await catalog.call("private_repo_search", input, as("alice"));
    expect(alice2.metadata.cached).toBe(true);
    expect(JSON.stringify(alice1)).toContain("qqbobsecret");
    const carol = await catalog.call("private_repo_search", input, as("carol"));
    expect(carol.metadata.cached).toBe(false);
    expect(JSON.stringify(carol)).not.toContain("qqbobsecret");
    expect(dataOf(carol).total_count).toBe(0);
  });
});

describe("citations", () => {
  it("formats APA-style references with et al., n.d. and DOI URLs", () => {
    expect(
      formatCitation({ title: "A study.", authors: ["Ann Lee"], date: "2020-01-02", doi: "doi:10.1/x" }),
    ).toBe("Lee, A. (2020). A study. https://doi.org/10.1/x");
    expect(formatCitation({ title: "T", authors: ["A B", "C D", "E F", "G H"] })).toBe(
      "B, A., et al. (n.d.). T.",
    );
    expect(formatCitation({ title: "T", authors: ["Doe, Jane Q."], date: "1999" })).toBe(
      "Doe, J. Q. (1999). T.",
    );
  });
});

describe("health", () => {
  it("reports the repository folder in health", async () => {
    const indexPath = tempDir();
    const report = await repoCatalog(indexPath).health("private-repo");
    expect(report.ok).toBe(true);
    expect(report.message).toContain(indexPath);
  });
});
