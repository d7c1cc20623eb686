import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CommandUsageError } from "@quiver/core";
import { runPluginCommand, useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRagPlugin, type RagOutput } from "../src/index.js";

const GUIDES = fileURLToPath(new URL("../demo/ugr-guia-docente", import.meta.url));

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "rag-index-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const makeCatalog = useCatalog({ env: {} });
const open = (indexPath: string) => {
  const catalog = makeCatalog();
  catalog.register(createRagPlugin(), { indexPath });
  return catalog;
};
const data = (r: { data?: unknown }) => r.data as RagOutput;
const index = (args: string[], flags: Record<string, string> = {}, json = false, options = {}) =>
  runPluginCommand(createRagPlugin(), "index", { args, flags, json, cwd: tmp, env: {}, options });

describe("quiver rag index <folder…>", () => {
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
    const indexPath = join(tmp, "folder.db");
    const run = await index(["material"], { index: "folder.db" });
    expect(run.exitCode).toBe(0);
    expect(run.lines).toContain("skipped slides.pdf (unsupported type)");
    expect(run.lines.find((l) => l.startsWith("not indexed extra.jsonl:2"))).toBeDefined();
    expect(run.lines.at(-1)).toMatch(
      new RegExp(`^indexed 6 documents \\(6 new, 0 replaced, \\d+ chunks\\) into ${indexPath} in \\d+ ms$`),
    );
    expect(run.progress[0]).toEqual({ done: 0, total: 1, label: "reading files" });
    expect(run.progress.at(-1)).toEqual({ done: 6, total: 6, label: "documents" });

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

    const again = await index(
      [folder],
      { index: indexPath, asignatura: "ignored when the path names one" },
      true,
    );
    expect(again.lines).toEqual([]);
    expect(again.json[0]).toMatchObject({ indexPath, documents: 6, added: 0, replaced: 6 });
  });

  it("writes the configured index by default (RAG_INDEX_PATH), several folders in one run, with --asignatura and --tipo", async () => {
    const a = join(tmp, "a");
    const b = join(tmp, "b");
    await mkdir(a, { recursive: true });
    await mkdir(b, { recursive: true });
    await writeFile(
      join(a, "tabu.md"),
      "# Búsqueda tabú\n\nLa búsqueda tabú usa una lista tabú para evitar ciclos.\n",
    );
    await writeFile(
      join(b, "sa.md"),
      "# Enfriamiento\n\nAcepta peores soluciones con una probabilidad que decrece.\n",
    );
    const indexPath = join(tmp, "configured.db");
    const run = await index(["a", "b"], { asignatura: "Metaheurísticas", tipo: "apuntes" }, true, {
      indexPath,
    });
    expect(run.exitCode).toBe(0);
    expect(run.json).toEqual([
      expect.objectContaining({ indexPath, documents: 2, added: 2, replaced: 0, errors: [], skipped: [] }),
    ]);
    const r = await open(indexPath).call("rag_search", {
      query: "lista tabú",
      asignatura: "metaheuristicas",
      tipo_documento: "apuntes",
    });
    expect(data(r).results[0]?.content).toMatch(/lista tabú/);
  });

  it("indexes the real guides shipped in demo/ in their original layout (subject from the folder name)", async () => {
    const indexPath = join(tmp, "guides.db");
    const run = await index([GUIDES], { index: indexPath }, true);
    const report = run.json[0] as { errors: unknown[]; documents: number };
    expect(report.errors).toEqual([]);
    expect(report.documents).toBeGreaterThan(20);
    const r = await open(indexPath).call("rag_search", {
      query: "bibliografía fundamental",
      asignatura: "metaheuristicas",
    });
    expect(data(r).results[0]?.metadata.seccion).toBe("bibliografía");
  });

  it("a folder that does not exist is a usage error with a hint, and nothing is written", async () => {
    const error = await index(["nope"], { index: "never.db" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandUsageError);
    expect((error as CommandUsageError).message).toBe("nope does not exist.");
    expect((error as CommandUsageError).hint).toContain("quiver rag index");
    expect(existsSync(join(tmp, "never.db"))).toBe(false);
  });

  it("exits 1 when nothing could be indexed", async () => {
    const empty = join(tmp, "only-pdf");
    await mkdir(empty, { recursive: true });
    await writeFile(join(empty, "slides.pdf"), "%PDF-1.4");
    const run = await index([empty], { index: join(tmp, "empty.db") });
    expect(run.exitCode).toBe(1);
    expect(run.lines.at(-1)).toMatch(/^indexed 0 documents/);
  });

  it("warns that the HTTP backend does not serve the index it builds", async () => {
    const folder = join(tmp, "warn");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "x.md"), "# X\n\nSome text.\n");
    const run = await index([folder], { index: join(tmp, "warn.db") }, false, {
      serviceUrl: "http://127.0.0.1:9/",
    });
    expect(run.exitCode).toBe(0);
    expect(run.warnings[0]).toMatch(/HTTP backend \(RAG_SERVICE_URL\)/);
  });

  it("describes itself for --help: positionals, options with descriptions, examples starting with quiver", () => {
    const command = createRagPlugin().commands?.find((c) => c.name === "index");
    expect(command?.positionals).toEqual({ min: 1, names: "<folder…>" });
    for (const option of Object.values(command?.options ?? {})) expect(option.description).not.toBe("");
    for (const example of command?.examples ?? []) expect(example).toMatch(/^quiver rag index /);
  });
});

describe("the embedded backend without an index", () => {
  it("a missing index file: unavailable, naming the command that builds it (and nothing is created)", async () => {
    const missing = join(tmp, "nope", "index.db");
    const r = await open(missing).call("rag_search", { query: "x" });
    expect(r.status).toBe("unavailable");
    expect(r.message).toContain(`no course-material index at ${missing}`);
    expect(r.suggestion).toContain("quiver rag index");
    expect(existsSync(missing)).toBe(false);
    expect((await open(missing).health("rag")).ok).toBe(false);
  });
});
