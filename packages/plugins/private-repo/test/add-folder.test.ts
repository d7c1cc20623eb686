import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { ToolProgress } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { readAuditLog } from "../src/index.js";
import { as, dataOf, repoCatalog, SAMPLE_FILES, tempDir, writeFiles } from "./support/repo.js";

// `private_repo_add_folder`: a folder of the caller's own import folder into their own collection,
// through the code `quiver private-repo add` runs, with progress per file read.
const setUp = () => {
  const indexPath = tempDir();
  writeFiles(join(indexPath, "imports", "alice", "papers"), SAMPLE_FILES);
  writeFiles(join(indexPath, "imports", "bob", "private"), {
    "secret.md": "# Bob's secret\n\nqqbobsecret.\n",
  });
  return { indexPath, catalog: repoCatalog(indexPath) };
};

describe("private_repo_add_folder", () => {
  it("adds the caller's folder to their collection, reporting each file read, then the documents indexed", async () => {
    const { catalog, indexPath } = setUp();
    const progress: ToolProgress[] = [];
    const r = await catalog.call(
      "private_repo_add_folder",
      { folder: "papers", collection: "Reading" },
      { ...as("alice"), onProgress: (p) => progress.push(p) },
    );
    expect(r.status, r.message).toBe("success");
    const files = Object.keys(SAMPLE_FILES).length;
    expect(dataOf(r)).toMatchObject({ collection: "reading", replaced: 0 });
    expect(dataOf(r).documents).toBeGreaterThanOrEqual(files);
    const reads = progress.filter((p) => p.message?.startsWith("reading ") && p.total === files);
    expect(reads.map((p) => p.progress)).toEqual([...Array(files).keys()]);
    // Each file as the caller named its folder, never the server's path.
    expect(reads.map((p) => p.message)).toContainEqual(
      expect.stringMatching(/^reading papers\/notes\/vitamin-d\.md \(\d of \d+ files read\)$/),
    );
    expect(JSON.stringify(progress)).not.toContain(indexPath);
    expect(progress.at(-1)?.message).toBe(
      `indexing: ${dataOf(r).documents} of ${dataOf(r).documents} documents`,
    );
    const found = await catalog.call("private_repo_search", { search_terms: "vitamin D" }, as("alice"));
    expect(dataOf(found).results.length).toBeGreaterThan(0);
    expect((await readAuditLog({ indexPath })).at(-1)).toMatchObject({
      principal: "alice",
      action: "add",
      target: "alice/reading",
    });
  });

  it("reaches only the caller's own import folder: another's, an absolute path or a link out are invalid_input", async () => {
    const { catalog, indexPath } = setUp();
    mkdirSync(join(indexPath, "imports", "alice", "links"), { recursive: true });
    symlinkSync(
      join(indexPath, "imports", "bob", "private"),
      join(indexPath, "imports", "alice", "links", "bob"),
    );
    for (const folder of [
      "../bob/private",
      join(indexPath, "imports", "bob", "private"),
      "links/bob",
      "missing",
    ]) {
      const r = await catalog.call("private_repo_add_folder", { folder, collection: "stolen" }, as("alice"));
      expect(r.status, folder).toBe("error");
      expect(r.error?.kind).toBe("invalid_input");
    }
    const none = await catalog.call("private_repo_list_collections", {}, as("alice"));
    expect(dataOf(none).collections).toEqual([]);
    const anonymous = await catalog.call(
      "private_repo_add_folder",
      { folder: "papers", collection: "x" },
      as(undefined),
    );
    expect(anonymous.status).toBe("access_denied");
  });

  it("a principal named like a path gets its own folder, never a parent", async () => {
    const { catalog } = setUp();
    const r = await catalog.call("private_repo_add_folder", { folder: ".", collection: "x" }, as(".."));
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/does not exist in your import folder/);
  });
});
