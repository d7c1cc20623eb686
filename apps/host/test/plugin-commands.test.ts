import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedDataDir } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_DIR, makeProject, type Project, runQuiver } from "./helpers.js";

const has = (pkg: string) => existsSync(join(HOST_DIR, "node_modules", pkg, "dist", "index.js"));
const RAG = has("@quiver/plugin-rag");
const GUIA = has("@quiver/plugin-guia");
const REPO = has("@quiver/plugin-private-repo");
const data = sharedDataDir();
for (const [ok, pkg] of [
  [RAG, "@quiver/plugin-rag"],
  [GUIA, "@quiver/plugin-guia"],
  [REPO, "@quiver/plugin-private-repo"],
] as const) {
  if (!ok)
    console.log(`skipped: ${pkg} is not built (or not a host dependency), so its command tests do not run`);
}

let project: Project;
let bare: Project;
let scratch: string;
beforeAll(() => {
  const workspace = [
    RAG && "@quiver/plugin-rag",
    GUIA && "@quiver/plugin-guia",
    REPO && "@quiver/plugin-private-repo",
  ].filter((x): x is string => typeof x === "string");
  project = makeProject({ workspace });
  bare = makeProject({ fixtures: ["echo"] });
  scratch = mkdtempSync(join(tmpdir(), "quiver-docs-"));
});
afterAll(() => {
  project?.cleanup();
  bare?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const q = (args: string[], env: Record<string, string> = {}, cwd = project.dir) =>
  runQuiver(args, { cwd, env });

describe.runIf(RAG)("quiver rag index", () => {
  it("indexes a folder with progress, into the index rag_search then reads", async () => {
    const folder = join(scratch, "material");
    mkdirSync(join(folder, "metaheuristicas", "apuntes"), { recursive: true });
    writeFileSync(
      join(folder, "metaheuristicas", "apuntes", "tema1.md"),
      "# Búsqueda tabú\n\nLa búsqueda tabú usa una lista tabú para evitar ciclos y una memoria a largo plazo.\n",
    );
    writeFileSync(
      join(folder, "metaheuristicas", "apuntes", "tema2.md"),
      "# Enfriamiento simulado\n\nAcepta peores soluciones con una probabilidad que decrece con la temperatura.\n",
    );
    writeFileSync(join(folder, "notes.pdf"), "%PDF-1.4 not really");
    const r = await q(["rag", "index", folder, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      documents: 2,
      added: 2,
      indexPath: join(project.dir, ".quiver", "rag-index.db"),
    });
    expect(r.stderr).toMatch(/indexing: \d+/);
    const hit = await q([
      "call",
      "rag_search",
      "--input",
      '{"query":"lista tabú","asignatura":"metaheuristicas"}',
      "--json",
    ]);
    expect(hit.code).toBe(0);
    expect(JSON.parse(hit.stdout).data.results[0].content).toMatch(/lista tabú/);
  });

  it("exits 2 for a folder that does not exist", async () => {
    const r = await q(["rag", "index", join(scratch, "nope")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("does not exist");
  });
});

describe("commands that need a plugin that is not installed", () => {
  it("say which package to install, exit 2", async () => {
    const r = await q(["rag", "index", scratch], {}, bare.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs the rag plugin, which is not installed here/);
    expect(r.stderr).toMatch(/pnpm add @quiver\/plugin-rag/);
    const g = await q(["guia", "import", scratch], {}, bare.dir);
    expect(g.stderr).toMatch(/pnpm add @quiver\/plugin-guia/);
    const p = await q(["repo", "add", scratch, "--owner", "a", "--collection", "c"], {}, bare.dir);
    expect(p.stderr).toMatch(/pnpm add @quiver\/plugin-private-repo/);
  });
});

describe.runIf(GUIA)("quiver guia import", () => {
  it("imports valid guides into GUIA_DIR and reports the skipped ones with the reason", async () => {
    const guides = join(scratch, "guias");
    const src = join(scratch, "to-import");
    mkdirSync(src, { recursive: true });
    writeFileSync(
      join(src, "algebra.yaml"),
      "asignatura: Álgebra Lineal\nevaluación:\n  - Examen final (70%)\n  - Prácticas (30%)\nbibliografía:\n  - Strang, Linear Algebra\n",
    );
    writeFileSync(join(src, "broken.json"), '{"evaluación": []}');
    const r = await q(["guia", "import", src, "--json"], { GUIA_DIR: guides });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.imported).toEqual([expect.objectContaining({ subject: "algebra", action: "created" })]);
    expect(report.skipped[0].reason).toMatch(/missing the subject's name/);
    const got = await q(
      ["call", "get_guia", "--input", '{"asignatura":"algebra","key":"evaluación"}', "--json"],
      { GUIA_DIR: guides },
    );
    expect(got.code).toBe(0);
    expect(JSON.stringify(JSON.parse(got.stdout).data)).toContain("Examen final");
  });

  it("refuses to import where nothing would serve it", async () => {
    const r = await q(["guia", "import", scratch]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Set GUIA_DIR .* or pass --dir/);
  });
});

describe.runIf(REPO)("quiver repo add", () => {
  it("adds documents to one scientist's collection, visible to them only", async () => {
    const file = join(scratch, "papers.md");
    writeFileSync(
      file,
      "---\ntitle: Off-target effects of CRISPR\nauthors: [Ada Lovelace]\ndate: 2021-03-01\n---\n\nGuide RNA mismatches cause off-target cleavage.\n",
    );
    const r = await q(["repo", "add", file, "--owner", "alice", "--collection", "crispr", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ owner: "alice", collection: "crispr", documents: 1 });
    const mine = await q([
      "call",
      "search_repository",
      "--input",
      '{"search_terms":"off-target cleavage"}',
      "--json",
      "--principal",
      "alice",
    ]);
    expect(JSON.stringify(JSON.parse(mine.stdout).data)).toContain("Off-target effects of CRISPR");
    const theirs = await q([
      "call",
      "search_repository",
      "--input",
      '{"search_terms":"off-target cleavage"}',
      "--json",
      "--principal",
      "bob",
    ]);
    expect(JSON.stringify(JSON.parse(theirs.stdout))).not.toContain("Off-target effects of CRISPR");
  });

  it("requires --owner and --collection", async () => {
    expect((await q(["repo", "add", scratch, "--collection", "x"])).code).toBe(2);
    expect((await q(["repo", "add", scratch, "--owner", "x"])).code).toBe(2);
  });
});

describe.runIf(data && RAG && GUIA)("demo mode", () => {
  it("fills rag, guia and private-repo from the shared data in under 10 s and serves real answers", async () => {
    const cache = mkdtempSync(join(tmpdir(), "quiver-demo-test-"));
    try {
      const env = { QUIVER_DATA_DIR: data!, QUIVER_CACHE_DIR: cache };
      const started = Date.now();
      const r = await q(["list", "--demo", "--json"], env);
      expect(r.code, r.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.stderr).toMatch(/rag: built a demo index of \d+ documents/);
      expect(r.stderr).toMatch(/guia: 2 teaching guides/);
      if (REPO) expect(r.stderr).toMatch(/private-repo: built a demo repository of \d+ SciFact abstracts/);
      const again = await q(["list", "--demo", "--json"], env);
      expect(again.stderr).toMatch(/rag: demo index reused/);
      const hit = await q(
        [
          "call",
          "rag_search",
          "--demo",
          "--input",
          '{"query":"evaluación","asignatura":"metaheuristicas"}',
          "--json",
        ],
        env,
      );
      expect(JSON.parse(hit.stdout).data.results.length).toBeGreaterThan(0);
      if (REPO) {
        const repo = await q(
          [
            "call",
            "search_repository",
            "--demo",
            "--input",
            '{"search_terms":"cerebral white matter diffusion"}',
            "--json",
          ],
          env,
        );
        expect(repo.code, repo.stdout).toBe(0);
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
