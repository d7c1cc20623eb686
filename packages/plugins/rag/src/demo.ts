import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type PluginDemo, slug } from "@quiver/core";
import type { SearchDocument } from "@quiver/search";
import pkg from "../package.json" with { type: "json" };
import { guideDocuments } from "./internal/index-folder.js";

/** The demo data shipped with the package (see demo/SOURCE.md), computed at the top of `src/` so it holds in `dist/` too. */
export const DEMO_DIR: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");
const GUIDES = join(DEMO_DIR, "ugr-guia-docente");
const CORPUS = join(DEMO_DIR, "scifact", "corpus.jsonl");

const isGuideFile = (f: string) => f.endsWith(".json") && dirname(f) !== ".";
/** The guides of the demo data, `<subject>/<file>.json` under `ugr-guia-docente/` (relative paths, sorted). */
const guideFiles = async (): Promise<string[]> =>
  (await readdir(GUIDES, { recursive: true })).filter(isGuideFile).sort();

/**
 * Builds the demo course-material index from the data the package ships: the two UGR teaching
 * guides, one document per section (asignatura `metaheuristicas`, `modelos_avanzados_computacion`),
 * and 400 SciFact abstracts (asignatura `scifact`, tipo_documento `abstract`). Replaces the file.
 */
const buildDemoIndex = async (indexPath: string) => {
  const docs: SearchDocument[] = [];
  for (const file of await guideFiles()) {
    const guide = JSON.parse(await readFile(join(GUIDES, file), "utf8")) as Record<string, unknown>;
    docs.push(...guideDocuments(guide, slug(dirname(file)), `ugr-guia-docente/${file}`));
  }
  for (const line of (await readFile(CORPUS, "utf8")).split("\n").filter((l) => l.trim())) {
    const { _id, title, text } = JSON.parse(line) as { _id: string; title?: string; text: string };
    const source = `scifact/corpus.jsonl#${_id}`;
    const metadata = { source, asignatura: "scifact", tipo_documento: "abstract" };
    docs.push({ id: `scifact/${_id}`, ...(title ? { title } : {}), text, metadata });
  }
  const path = resolve(indexPath);
  await mkdir(dirname(path), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${path}${suffix}`, { force: true });
  // The index builder is loaded only when demo mode seeds, not at import.
  const { openSearchIndex } = await import("@quiver/search");
  const index = await openSearchIndex({ path });
  try {
    const { chunks } = await index.add(docs);
    const subjects = [...new Set(docs.map((d) => String(d.metadata?.asignatura)))].sort();
    return { indexPath: path, documents: docs.length, chunks, subjects };
  } finally {
    await index.close();
  }
};

/**
 * The rag plugin's demo step: an embedded index of the data the package ships (two real UGR teaching
 * guides and 400 SciFact abstracts, see demo/SOURCE.md), built once and reused while the data and the
 * plugin version are unchanged. Skipped when the user chose their own index or service.
 */
export const ragDemo: PluginDemo = {
  skipWhenSet: ["RAG_SERVICE_URL", "RAG_INDEX_PATH", "RAG_BACKEND", "DATABASE_URL"],
  data: [DEMO_DIR],
  seed: async (ctx) => {
    // The files the demo index is built from, for the demo cache's fingerprint.
    const files = [...(await guideFiles()).map((f) => join(GUIDES, f)), CORPUS];
    const build = ctx.cached("rag-demo.db", { tag: `rag@${pkg.version}`, files });
    const options = { backend: "embedded", indexPath: build.path };
    if (build.fresh) return { options, message: `demo index reused from ${build.path}` };
    const { documents, chunks, subjects, indexPath } = await buildDemoIndex(build.path);
    await build.markFresh();
    const message = `built a demo index of ${documents} documents (${chunks} chunks; subjects ${subjects.join(", ")}) at ${indexPath}`;
    return { options, message };
  },
};
