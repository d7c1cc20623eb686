import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Catalog, createCatalog } from "@quiver/core";
import fdaPlugin from "@quiver/plugin-fda";
import guiaPlugin from "@quiver/plugin-guia";
import { assertEnvelope, type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, runQuiver } from "../helpers.js";

/** The openFDA `search` expression with every quoted phrase replaced by `"…"`: its structure. */
const structureOf = (search: string) => search.replace(/"[^"]*"/g, '"…"');
/** The quoted phrases of an openFDA `search` expression. */
const phrasesOf = (search: string) => [...search.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);

describe("openFDA query syntax in fda inputs is neutralised", () => {
  let up: Emulator;
  let catalog: Catalog;
  beforeAll(async () => {
    up = await startEmulator();
    up.route("GET", "/drug/drugsfda.json", {
      status: 404,
      json: { error: { code: "NOT_FOUND", message: "No matches found!" } },
    });
    catalog = createCatalog({ env: {}, policies: { "*": { cache: false } } });
    catalog.register(fdaPlugin, { baseUrl: up.url });
  });
  afterAll(async () => {
    await catalog?.close();
    await up?.close();
  });

  /** Calls fda_search_drugs with one brand name and returns the `search` the emulator received. */
  const searchSentFor = async (brand: string) => {
    up.reset();
    up.route("GET", "/drug/drugsfda.json", {
      status: 404,
      json: { error: { code: "NOT_FOUND", message: "No matches found!" } },
    });
    const r = assertEnvelope(
      await catalog.call("fda_search_drugs", { search_criteria: { brand_name: brand } }),
    );
    const sent = up.requestsTo("GET", "/drug/drugsfda.json");
    return { r, sent, search: sent[0]?.query.get("search") ?? "" };
  };

  it.each([
    "semaglutide+OR+openfda.brand_name:*",
    'ozempic" OR openfda.brand_name:"*',
    "a:b) OR (c:*",
    'x\\" OR _exists_:openfda',
    "semaglutide AND NOT openfda.brand_name:[* TO *]",
  ])("keeps %j inside one quoted phrase: the query's structure is the benign one's", async (hostile) => {
    const benign = await searchSentFor("ozempic");
    const attack = await searchSentFor(hostile);
    expect(attack.r.error?.kind).not.toBe("internal");
    expect(attack.sent.length).toBeGreaterThanOrEqual(1);
    expect(structureOf(attack.search)).toBe(structureOf(benign.search));
    // Every phrase holds the value, operators and all, as literal text: no quote closes it early.
    for (const phrase of phrasesOf(attack.search)) expect(phrase).not.toMatch(/["\\]/);
    expect(structureOf(attack.search)).not.toMatch(/\*|_exists_|\bNOT\b/);
  });

  it.each([
    ["NUL", "sema\u0000glutide"],
    ["right-to-left override", "sema\u202Eglutide"],
    ["escape sequence", "\u001b[2Jsemaglutide"],
  ])("refuses a %s in a value before anything is sent upstream", async (_, value) => {
    const { r, sent } = await searchSentFor(value);
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/search_criteria\.brand_name contains the character U\+/);
    expect(sent).toEqual([]);
  });

  it("refuses an oversized value with the field's limit, nothing sent upstream", async () => {
    const { r, sent } = await searchSentFor("x".repeat(100_000));
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/brand_name/);
    expect(sent).toEqual([]);
  });
});

describe("MongoDB operators in guia inputs are refused or neutralised", () => {
  let catalog: Catalog;
  beforeAll(() => {
    catalog = createCatalog({ env: {} });
    catalog.register(guiaPlugin, {});
  });
  afterAll(() => catalog?.close());

  it.each([
    [{ asignatura: { $ne: null } }],
    [{ asignatura: { $where: "sleep(1000) || true" } }],
    [{ asignatura: "metaheuristicas", key: { $gt: "" } }],
    [{ asignatura: { $regex: ".*" } }],
  ])("refuses an operator object %j as invalid input", async (input) => {
    const r = assertEnvelope(await catalog.call("guia_get_guide", input));
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.data).toBeUndefined();
  });

  it.each([['{"$ne": null}'], ["$where"], ['{"$regex": ".*"}'], ["a.b"]])(
    "treats an operator written as text (%j) as a subject name that matches no guide",
    async (asignatura) => {
      const r = assertEnvelope(await catalog.call("guia_get_guide", { asignatura }));
      expect(r.status).not.toBe("success");
      expect(r.error?.kind).not.toBe("internal");
    },
  );

  it("still answers the real subject (the refusals above are not a broken tool)", async () => {
    const r = assertEnvelope(await catalog.call("guia_get_guide", { asignatura: "metaheuristicas" }));
    expect(r.status).toBe("success");
  });
});

describe("path traversal in file imports is refused", () => {
  let project: Project;
  let outside: string;
  beforeAll(() => {
    project = makeProject({
      workspace: ["@quiver/plugin-rag", "@quiver/plugin-private-repo", "@quiver/plugin-guia"],
    });
    outside = join(project.dir, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.md"), "# Secret\n\nThe private key is hunter2.\n");
    const course = join(project.dir, "course");
    mkdirSync(course);
    writeFileSync(join(course, "lesson.md"), "# Genetic algorithms\n\nSelection, crossover, mutation.\n");
    symlinkSync(join(outside, "secret.md"), join(course, "escape.md"));
  });
  afterAll(() => project?.cleanup());

  it("quiver rag index: a link leading out of the folder is reported and not indexed", async () => {
    const r = await runQuiver(["rag", "index", "course", "--index", "rag.db", "--json"], {
      cwd: project.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/escape\.md.*outside the folder/s);
    const search = await runQuiver(
      ["call", "rag_search", "--input", JSON.stringify({ query: "private key hunter2" })],
      { cwd: project.dir, env: { RAG_INDEX_PATH: join(project.dir, "rag.db") } },
    );
    expect(search.stdout).toMatch(/total_results: 0/);
    expect(search.stdout).not.toContain("The private key is");
  });

  it("quiver private-repo add: a link leading out of the folder is not added; '..' in owner or collection is refused", async () => {
    const r = await runQuiver(
      [
        "private-repo",
        "add",
        "course",
        "--owner",
        "alice",
        "--collection",
        "papers",
        "--repo",
        "repo",
        "--json",
      ],
      { cwd: project.dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/escape\.md.*outside the folder/s);
    for (const collection of ["../../escaped", "/tmp/escaped", "a/../../escaped"]) {
      const bad = await runQuiver(
        ["private-repo", "add", "course", "--owner", "alice", "--collection", collection, "--repo", "repo"],
        { cwd: project.dir },
      );
      expect(bad.code, collection).toBe(2);
      expect(bad.stderr).toMatch(/not a valid collection name/);
    }
    // An owner is a principal name kept in the database, never a path: "../bob" names nobody's folder.
    await runQuiver(
      ["private-repo", "add", "course", "--owner", "../../bob", "--collection", "papers", "--repo", "repo"],
      { cwd: project.dir },
    );
    expect(existsSync(join(project.dir, "escaped"))).toBe(false);
    expect(existsSync(join(project.dir, "..", "bob"))).toBe(false);
    for (const name of readdirSync(join(project.dir, "repo", "collections")))
      expect(name).toMatch(/^[\w.-]+$/);
  });

  it("quiver guia import: a guide whose subject is a path is stored inside the guide folder, never outside", async () => {
    const guides = join(project.dir, "to-import");
    mkdirSync(guides);
    writeFileSync(
      join(guides, "evil.json"),
      JSON.stringify({ subject: "../../escaped-guide", asignatura: "Evil", evaluación: ["x"] }),
    );
    const r = await runQuiver(["guia", "import", "to-import", "--dir", "guias", "--json"], {
      cwd: project.dir,
    });
    expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
    expect(existsSync(join(project.dir, "escaped-guide.json"))).toBe(false);
    expect(existsSync(join(project.dir, "..", "escaped-guide.json"))).toBe(false);
    for (const name of existsSync(join(project.dir, "guias")) ? readdirSync(join(project.dir, "guias")) : [])
      expect(name).not.toMatch(/\.\.|\//);
  });
});
