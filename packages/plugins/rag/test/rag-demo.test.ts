import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describePluginConformance, seedPluginDemo, useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRagPlugin, type RagOutput } from "../src/index.js";

const FIXTURES = new URL("./fixtures/scifact/", import.meta.url);

let tmp: string;
let demoPath: string;
let firstMessage = "";
let buildMs = 0;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "rag-demo-"));
  const started = performance.now();
  const built = await seedPluginDemo(createRagPlugin(), { cacheDir: join(tmp, "cache") });
  buildMs = performance.now() - started;
  demoPath = String(built.options.indexPath);
  firstMessage = built.message;
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const makeCatalog = useCatalog({ env: {} });
const open = (options: Record<string, unknown> = {}) => {
  const catalog = makeCatalog();
  catalog.register(createRagPlugin(), { backend: "embedded", indexPath: demoPath, ...options });
  return catalog;
};
const data = (r: { data?: unknown }) => r.data as RagOutput;

describe("embedded backend over the demo index", () => {
  describePluginConformance(createRagPlugin({ backend: "embedded" }), {
    options: () => ({ indexPath: demoPath }),
    // The store "down": an index file that does not exist.
    downOptions: () => ({ indexPath: join(tmp, "missing", "index.db") }),
  });
});

describe("the demo step (data shipped in demo/)", () => {
  it("builds the index of the two UGR guides and 400 SciFact abstracts in under 5 s, then reuses it", async () => {
    console.log(`demo index built in ${Math.round(buildMs)} ms`);
    expect(buildMs).toBeLessThan(5000);
    expect(firstMessage).toMatch(
      /^built a demo index of \d+ documents \(\d+ chunks; subjects metaheuristicas, modelos_avanzados_computacion, scifact\)/,
    );
    const again = await seedPluginDemo(createRagPlugin(), { cacheDir: join(tmp, "cache") });
    expect(again.options).toEqual({ backend: "embedded", indexPath: demoPath });
    expect(again.message).toBe(`demo index reused from ${demoPath}`);
  });

  it("is skipped when the user chose an index or a service", () => {
    expect(createRagPlugin().demo?.skipWhenSet).toEqual([
      "RAG_SERVICE_URL",
      "RAG_INDEX_PATH",
      "RAG_BACKEND",
      "DATABASE_URL",
    ]);
  });

  it("answers a real question from the Metaheurísticas guide, filtered by subject", async () => {
    const r = await open().call("rag_search", {
      query: "¿Cómo se evalúa la asignatura? examen final",
      asignatura: "Metaheurísticas",
    });
    expect(r.status, r.message).toBe("success");
    const top = data(r).results[0]!;
    expect(top.metadata).toMatchObject({
      asignatura: "metaheuristicas",
      tipo_documento: "guia_docente",
      seccion: "evaluación",
    });
    expect(top.metadata.source).toBe("ugr-guia-docente/metaheuristicas/guía_docente.json");
    expect(top.score).toBeGreaterThan(0);
    expect(data(r).results.every((x) => x.metadata.asignatura === "metaheuristicas")).toBe(true);
  });

  it("the session's subject filters when the model leaves it out", async () => {
    const r = await open().call(
      "rag_search",
      { query: "máquinas de Turing computabilidad" },
      { session: { values: { asignatura: "modelos_avanzados_computacion" } } },
    );
    expect(data(r).results.length).toBeGreaterThan(0);
    expect(data(r).results.every((x) => x.metadata.asignatura === "modelos_avanzados_computacion")).toBe(
      true,
    );
  });

  it("tipo_documento filters too; SciFact abstracts answer English questions", async () => {
    const r = await open().call("rag_search", {
      query: "diffusion tensor imaging of newborn white matter",
      tipo_documento: "abstract",
      top_k: 3,
    });
    expect(r.status).toBe("success");
    expect(data(r).results).toHaveLength(3);
    expect(data(r).results[0]!.metadata).toMatchObject({
      asignatura: "scifact",
      tipo_documento: "abstract",
      doc_id: "scifact/4983",
    });
  });

  it("finds a judged-relevant abstract in the top 10 for most of the first 100 SciFact training claims", async () => {
    const queries = readFileSync(new URL("queries.jsonl", FIXTURES), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { _id: string; text: string });
    const relevant = new Map<string, Set<string>>();
    for (const line of readFileSync(new URL("qrels.tsv", FIXTURES), "utf8").split("\n").slice(1)) {
      const [q, d] = line.split("\t");
      if (!q || !d) continue;
      relevant.set(q, (relevant.get(q) ?? new Set()).add(`scifact/${d}`));
    }
    const catalog = open();
    let hits = 0;
    for (const q of queries) {
      const r = await catalog.call("rag_search", { query: q.text, asignatura: "scifact", top_k: 10 });
      expect(r.status, r.message).toBe("success");
      if (data(r).results.some((x) => relevant.get(q._id)?.has(String(x.metadata.doc_id)))) hits++;
    }
    console.log(
      `SciFact demo subset: a relevant abstract in the top 10 for ${hits} of ${queries.length} claims`,
    );
    expect(queries).toHaveLength(100);
    expect(hits).toBeGreaterThanOrEqual(85);
  }, 60_000);

  it("a subject with no material: success, no results, a message saying so", async () => {
    const r = await open().call("rag_search", { query: "evaluación", asignatura: "astrofisica" });
    expect(r.status).toBe("success");
    expect(data(r).results).toEqual([]);
    expect(r.message).toContain("No course material matches");
  });

  it("health reports the index size", async () => {
    const report = await open().health("rag");
    expect(report.ok).toBe(true);
    expect(report.message).toMatch(/\d+ documents, \d+ chunks/);
  });

  it("sessionAsignatura override hides the field and always takes the session's subject", async () => {
    const catalog = makeCatalog();
    catalog.register(createRagPlugin({ sessionAsignatura: "override" }), { indexPath: demoPath });
    const schema = JSON.stringify(catalog.describe("rag_search")?.inputSchema);
    expect(schema).not.toContain("Only material of this subject");
    const r = await catalog.call(
      "rag_search",
      { query: "evaluación examen" },
      { session: { values: { asignatura: "modelos_avanzados_computacion" } } },
    );
    expect(data(r).results.every((x) => x.metadata.asignatura === "modelos_avanzados_computacion")).toBe(
      true,
    );
  });
});
