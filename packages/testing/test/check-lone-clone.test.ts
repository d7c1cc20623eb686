// lone-clone: allow-file (this test feeds the checker examples of the reads it must catch)
// The lone-clone check (scripts/check-lone-clone.mjs), run as CI runs it: node on the script, against
// a temporary repository with one test that reads ../shared, a benchmark that may, and clean files.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../../scripts/check-lone-clone.mjs", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temporary repository holding `files` (path → content). */
const repo = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "quiver-lone-clone-"));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
};

/** Runs the check with the repository as the working directory, or as the argument. */
const check = (root: string, as: "cwd" | "arg") =>
  spawnSync(process.execPath, as === "cwd" ? [SCRIPT] : [SCRIPT, root], {
    cwd: as === "cwd" ? root : tmpdir(),
    encoding: "utf8",
  });

const CLEAN = {
  "packages/a/src/index.ts": 'export const a = "a";\n',
  "packages/a/test/a.test.ts":
    'import { readFileSync } from "node:fs";\nreadFileSync(new URL("fixtures/x.json", import.meta.url));\n',
  "packages/a/test/fixtures/SOURCE.md": "Copied from shared/data/x (origin, licence).\n",
  "bench/search/scifact.mjs": 'const corpus = "../shared/data/beir-scifact/corpus.jsonl";\n',
  "packages/a/src/old.ts":
    "// lone-clone: allow-file kept for benchmarks\nexport const dir = findSharedData();\n",
};

describe("scripts/check-lone-clone.mjs", () => {
  it("exits 2 with its usage when the folder does not exist", () => {
    const missing = join(repo({}), "no-such-folder");
    const run = check(missing, "arg");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${missing} is not a folder (usage: node scripts/check-lone-clone.mjs`);
  });

  it("exits 1 and names the file, line and pattern of a test that reads ../shared", () => {
    const root = repo({
      ...CLEAN,
      "packages/b/test/b.test.ts":
        'import { readFileSync } from "node:fs";\n// a comment about ../shared is not a read\nconst raw = readFileSync("../shared/data/openfda/x.json", "utf8");\n',
    });
    for (const as of ["cwd", "arg"] as const) {
      const run = check(root, as);
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain("lone clone: 1 read(s) of data outside the repository");
      expect(run.stderr).toContain(
        'packages/b/test/b.test.ts:3: reads ../shared: const raw = readFileSync("../shared/data/openfda/x.json", "utf8");',
      );
      expect(run.stderr).not.toContain("bench/search");
      expect(run.stderr).not.toContain("old.ts");
    }
  });

  it("catches the helpers, join(..., 'shared', 'data') and absolute /work paths too", () => {
    const root = repo({
      "apps/x/src/demo.ts": 'const d = join(dir, "..", "shared", "data");\n',
      "apps/x/test/x.test.ts": 'const d = sharedDataDir();\nconst e = "/work/shared/data";\n',
    });
    const run = check(root, "arg");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('apps/x/src/demo.ts:1: reads join(..., "shared", "data")');
    expect(run.stderr).toContain("apps/x/test/x.test.ts:1: reads sharedDataDir/sharedDataPath");
    expect(run.stderr).toContain("apps/x/test/x.test.ts:2: reads shared/data");
  });

  it("exits 0 on a repository whose tests read only their own fixtures", () => {
    const run = check(repo(CLEAN), "cwd");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^lone clone: 3 files checked, none reads data outside the repository/);
  });
});
