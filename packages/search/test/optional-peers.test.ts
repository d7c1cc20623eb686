import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `pg` and `latex-utensils` are optional peers: a project that installs @quiver/search without them
// (the host, for its tool finder's ranking) loads it, and a feature that needs one names it.
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "quiver-search-peers-"));
  const installed = join(project, "node_modules", "@quiver", "search");
  mkdirSync(installed, { recursive: true });
  cpSync(join(PACKAGE, "package.json"), join(installed, "package.json"));
  cpSync(join(PACKAGE, "dist"), join(installed, "dist"), { recursive: true });
  // Its one required dependency, as npm would install it; neither optional peer.
  const yaml = dirname(
    realpathSync(createRequire(join(PACKAGE, "package.json")).resolve("yaml/package.json")),
  );
  symlinkSync(yaml, join(project, "node_modules", "yaml"), "dir");
  mkdirSync(join(project, "refs"));
  writeFileSync(join(project, "refs", "refs.bib"), "@article{a, title={Base editing}, year={2021}}\n");
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const run = async (script: string) => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd: project,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
};

describe("@quiver/search installed without its optional peers", () => {
  it("declares them as optional peers, not dependencies", async () => {
    const { readFile } = await import("node:fs/promises");
    const manifest = JSON.parse(await readFile(join(PACKAGE, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies)).not.toEqual(expect.arrayContaining(["pg"]));
    expect(Object.keys(manifest.dependencies)).not.toEqual(expect.arrayContaining(["latex-utensils"]));
    expect(manifest.peerDependenciesMeta).toEqual({
      "latex-utensils": { optional: true },
      pg: { optional: true },
    });
  });

  it("loads, ranks and indexes in SQLite", async () => {
    const out = await run(`
      import { openSearchIndex } from "@quiver/search";
      import { bm25Idf } from "@quiver/search/ranking";
      const index = await openSearchIndex({ path: ":memory:" });
      await index.add([{ id: "a", title: "Mitochondria", text: "The powerhouse of the cell." }]);
      const { results } = await index.search("powerhouse", { topK: 1 });
      await index.close();
      console.log(JSON.stringify({ hit: results[0]?.title, idf: bm25Idf(10, 1) > 0 }));
    `);
    expect(out).toEqual({ hit: "Mitochondria", idf: true });
  });

  it("a PostgreSQL index names the package to install", async () => {
    const out = await run(`
      import { openSearchIndex, SearchError } from "@quiver/search";
      try {
        await openSearchIndex({ databaseUrl: "postgres://127.0.0.1:1/none", name: "n", principal: "p" });
        console.log("{}");
      } catch (e) {
        console.log(JSON.stringify({ search: SearchError.isInstance(e), code: e.code, message: e.message }));
      }
    `);
    expect(out).toMatchObject({ search: true, code: "invalid_option" });
    expect(out.message).toMatch(/PostgreSQL index needs the package "pg".*npm install pg/);
  });

  it("a BibTeX file is reported as not loaded, naming the package to install", async () => {
    const out = await run(`
      import { loadDocuments } from "@quiver/search";
      const { documents, errors } = await loadDocuments("refs");
      console.log(JSON.stringify({ documents: documents.length, errors }));
    `);
    expect(out.documents).toBe(0);
    expect(JSON.stringify(out.errors)).toMatch(/Reading BibTeX needs the package \\"latex-utensils\\"/);
  });
});
