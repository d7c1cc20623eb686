import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CommandUsageError } from "@quiver/core";
import { runPluginCommand } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createPrivateRepoPlugin } from "../src/index.js";
import { as, dataOf, repoCatalog, SAMPLE_FILES, tempDir, writeFiles } from "./support/repo.js";

const PAPER =
  "---\ntitle: Off-target effects of CRISPR\nauthors: [Ada Lovelace]\ndate: 2021-03-01\n---\n\nGuide RNA mismatches cause off-target cleavage.\n";

const add = (
  cwd: string,
  args: string[],
  flags: Record<string, string>,
  options: Record<string, unknown> = {},
  json = false,
) => runPluginCommand(createPrivateRepoPlugin(), "add", { args, flags, options, cwd, json, env: {} });

describe("quiver private-repo add <files…> --owner --collection", () => {
  it("adds documents to one scientist's collection, visible to them only", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "papers.md"), PAPER);
    const indexPath = join(dir, "repo");
    const r = await add(dir, ["papers.md"], { owner: "alice", collection: "CRISPR" }, { indexPath }, true);
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual([
      expect.objectContaining({ repository: indexPath, owner: "alice", collection: "crispr", documents: 1 }),
    ]);
    const catalog = repoCatalog(indexPath);
    const mine = await catalog.call(
      "private_repo_search",
      { search_terms: "off-target cleavage" },
      as("alice"),
    );
    expect(JSON.stringify(dataOf(mine))).toContain("Off-target effects of CRISPR");
    const theirs = await catalog.call(
      "private_repo_search",
      { search_terms: "off-target cleavage" },
      as("bob"),
    );
    expect(JSON.stringify(theirs)).not.toContain("Off-target effects of CRISPR");
  });

  it("--repo writes another repository; several paths; lines for people and progress", async () => {
    const dir = writeFiles(tempDir(), SAMPLE_FILES);
    writeFileSync(join(dir, "slides.pdf"), "%PDF-1.4");
    const r = await add(dir, ["notes", "refs", "data", "slides.pdf"], {
      owner: "alice",
      collection: "papers",
      repo: "other",
    });
    expect(r.exitCode).toBe(0);
    expect(r.lines).toContain("skipped slides.pdf (unsupported type)");
    expect(r.lines.find((l) => l.startsWith("not added abstracts.jsonl:2"))).toBeDefined();
    expect(r.lines.at(-1)).toMatch(
      new RegExp(
        `^added \\d+ documents to alice/papers \\(\\d+ new, 0 replaced, \\d+ chunks\\) in ${join(dir, "other")}$`,
      ),
    );
    expect(r.progress[0]).toMatchObject({ done: 0, total: 4, label: join(dir, "notes") });
    expect(r.progress.at(-1)?.label).toBe("documents");
    expect(existsSync(join(dir, "other", "repo.db"))).toBe(true);
  });

  it("requires --owner and --collection, valid names and existing files (usage errors with a hint)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "papers.md"), PAPER);
    const options = { indexPath: join(dir, "repo") };
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [["papers.md"], { collection: "x" }, /--owner <principal> is required/],
      [["papers.md"], { owner: "x" }, /--collection <name> is required/],
      [["papers.md"], { owner: "alice", collection: "../etc" }, /not a valid collection name/],
      [["nope.md"], { owner: "alice", collection: "x" }, /No such file or folder: nope\.md/],
    ];
    for (const [args, flags, message] of cases) {
      const error = await add(dir, args, flags, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CommandUsageError);
      expect((error as CommandUsageError).message).toMatch(message);
      expect((error as CommandUsageError).hint).toBeTruthy();
    }
  });

  it("exits 1 when nothing was added", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "slides.pdf"), "%PDF-1.4");
    const r = await add(
      dir,
      ["slides.pdf"],
      { owner: "alice", collection: "x" },
      { indexPath: join(dir, "repo") },
    );
    expect(r.exitCode).toBe(1);
    expect(r.lines.at(-1)).toMatch(/^added 0 documents/);
  });

  it("describes itself for --help", () => {
    const command = createPrivateRepoPlugin().commands?.find((c) => c.name === "add");
    expect(command?.positionals).toEqual({ min: 1, names: "<files…>" });
    expect(command?.options?.owner).toMatchObject({ required: true, value: "<principal>" });
    expect(command?.options?.collection).toMatchObject({ required: true });
    for (const example of command?.examples ?? []) expect(example).toMatch(/^quiver private-repo add /);
  });
});
