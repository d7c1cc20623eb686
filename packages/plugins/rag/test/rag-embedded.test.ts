import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Catalog, createCatalog } from "@quiver/core";
import { describePluginConformance, sharedDataDir } from "@quiver/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  buildDemoIndex,
  createRagPlugin,
  type IndexProgress,
  indexFolder,
  type RagOutput,
} from "../src/index.js";

const shared = sharedDataDir();
if (!shared)
  console.log("skipped: the shared data folder (../shared/data) was not found; set QUIVER_SHARED_DATA");

let tmp: string;
let demoPath: string;
let demoMs = 0;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "rag-embedded-"));
  demoPath = join(tmp, "demo.db");
  if (shared) demoMs = (await buildDemoIndex({ indexPath: demoPath, dataDir: shared })).durationMs;
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe.runIf(!!shared)("embedded backend over the demo index", () => {
  describePluginConformance(createRagPlugin({ backend: "embedded" }), {
    options: () => ({ indexPath: demoPath }),
  });
});

const catalogs: Catalog[] = [];
const open = (indexPath: string, options: Record<string, unknown> = {}) => {
  const catalog = createCatalog({ env: {} });
  catalog.register(createRagPlugin(), { indexPath, ...options });
  catalogs.push(catalog);
  return catalog;
};
afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((c) => c.close()));
});
const data = (r: { data?: unknown }) => r.data as RagOutput;

describe.runIf(!!shared)("the demo index from ../shared/data", () => {
  it("builds in under 5 s (two real guides + 1000 SciFact abstracts)", () => {
    console.log(`demo index built in ${demoMs} ms`);
    expect(demoMs).toBeLessThan(5000);
  });

  it("answers a real question from the Metaheurísticas guide, filtered by subject", async () => {
    const r = await open(demoPath).call("rag_search", {
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
    const r = await open(demoPath).call(
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
    const r = await open(demoPath).call("rag_search", {
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

  it("a subject with no material: success, no results, a message saying so", async () => {
    const r = await open(demoPath).call("rag_search", { query: "evaluación", asignatura: "astrofisica" });
    expect(r.status).toBe("success");
    expect(data(r).results).toEqual([]);
    expect(r.message).toContain("No course material matches");
  });

  it("health reports the index size", async () => {
    const report = await open(demoPath).health("rag");
    expect(report.ok).toBe(true);
    expect(report.message).toMatch(/\d+ documents, \d+ chunks/);
  });
});

describe("indexFolder (quiver rag index <folder>)", () => {
  it("indexes Markdown, text, JSON Lines and teaching guides; tags subject and type from the folder layout; reports progress and problems", async () => {
    const folder = join(tmp, "material");
    await mkdir(join(folder, "metaheuristicas", "apuntes"), { recursive: true });
    await mkdir(join(folder, "metaheuristicas", "examenes"), { recursive: true });
    await mkdir(join(folder, "Modelos Avanzados"), { recursive: true });
    await writeFile(
      join(folder, "metaheuristicas", "apuntes", "tema5.md"),
      "# Algoritmos genéticos\n\nUn algoritmo genético mantiene una población de cromosomas que evoluciona por selección, cruce y mutación.\n",
    );
    await writeFile(
      join(folder, "metaheuristicas", "examenes", "junio.md"),
      "---\ntipo_documento: Examen Final\n---\n# Junio\n\nPregunta 1: explique el enfriamiento simulado y su esquema de temperatura.\n",
    );
    await writeFile(
      join(folder, "Modelos Avanzados", "turing.txt"),
      "Una máquina de Turing tiene una cinta infinita y un cabezal de lectura.",
    );
    await writeFile(
      join(folder, "extra.jsonl"),
      `${JSON.stringify({ id: "n1", title: "Tabú", text: "La búsqueda tabú prohíbe movimientos recientes.", asignatura: "Metaheurísticas", tipo_documento: "apuntes" })}\n{broken\n`,
    );
    await writeFile(
      join(folder, "guia.json"),
      JSON.stringify({
        subject: "algebra",
        asignatura: "Guía docente de Álgebra (1)",
        evaluación: ["Examen 100%"],
        grado: "G",
      }),
    );
    await writeFile(join(folder, "slides.pdf"), "%PDF-1.4");
    const progress: IndexProgress[] = [];
    const indexPath = join(tmp, "folder.db");
    const report = await indexFolder(folder, { indexPath, onProgress: (p) => progress.push(p) });
    expect(report).toMatchObject({ documents: 6, added: 6, replaced: 0 });
    expect(report.chunks).toBeGreaterThanOrEqual(6);
    expect(report.errors).toEqual([expect.objectContaining({ path: "extra.jsonl", line: 2 })]);
    expect(report.skipped).toEqual(["slides.pdf"]);
    expect(progress[0]).toEqual({ phase: "read", done: 0, total: 1 });
    expect(progress.at(-1)).toEqual({ phase: "index", done: 6, total: 6 });

    const c = open(indexPath);
    const genetic = await c.call("rag_search", {
      query: "población cromosomas",
      asignatura: "metaheuristicas",
      tipo_documento: "apuntes",
    });
    expect(data(genetic).results[0]).toMatchObject({
      metadata: {
        source: "metaheuristicas/apuntes/tema5.md",
        asignatura: "metaheuristicas",
        tipo_documento: "apuntes",
      },
    });
    const exam = await c.call("rag_search", {
      query: "enfriamiento simulado",
      tipo_documento: "examen final",
    });
    expect(data(exam).results[0]?.metadata.tipo_documento).toBe("examen_final");
    const turing = await c.call("rag_search", { query: "cinta", asignatura: "Modelos Avanzados" });
    expect(data(turing).results[0]?.metadata.asignatura).toBe("modelos_avanzados");
    const tabu = await c.call("rag_search", {
      query: "movimientos recientes",
      asignatura: "METAHEURÍSTICAS",
    });
    expect(data(tabu).results[0]?.metadata.source).toBe("extra.jsonl");
    const guide = await c.call("rag_search", {
      query: "examen",
      asignatura: "algebra",
      tipo_documento: "guia_docente",
    });
    expect(data(guide).results[0]?.metadata).toMatchObject({ seccion: "evaluación", source: "guia.json" });

    const again = await indexFolder(folder, { indexPath, asignatura: "ignored when the path names one" });
    expect(again).toMatchObject({ added: 0, replaced: 6 });
  });

  it.runIf(!!shared)(
    "indexes the real guides folder in its original layout (subject from the folder name)",
    async () => {
      const indexPath = join(tmp, "guides.db");
      const report = await indexFolder(join(shared!, "ugr-guia-docente"), { indexPath });
      expect(report.errors).toEqual([]);
      expect(report.documents).toBeGreaterThan(20);
      const r = await open(indexPath).call("rag_search", {
        query: "bibliografía fundamental",
        asignatura: "metaheuristicas",
      });
      expect(data(r).results[0]?.metadata.seccion).toBe("bibliografía");
    },
  );

  it("a missing index file: unavailable, naming the command that builds it (and nothing is created)", async () => {
    const missing = join(tmp, "nope", "index.db");
    const r = await open(missing).call("rag_search", { query: "x" });
    expect(r.status).toBe("unavailable");
    expect(r.message).toContain(`no course-material index at ${missing}`);
    expect(r.suggestion).toContain("quiver rag index");
    const { existsSync } = await import("node:fs");
    expect(existsSync(missing)).toBe(false);
    expect((await open(missing).health("rag")).ok).toBe(false);
  });
});
