import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { slug } from "@quiver/core";
import type { SearchDocument } from "@quiver/search";
import { DEMO_DIR } from "../demo.js";
import { guideDocuments } from "./guide-documents.js";

const GUIDES = join(DEMO_DIR, "ugr-guia-docente");
const CORPUS = join(DEMO_DIR, "scifact", "corpus.jsonl");

/** The guides of the demo data, `<subject>/<file>.json` under `ugr-guia-docente/` (relative paths, sorted). */
const guideFiles = async (): Promise<string[]> =>
  (await readdir(GUIDES, { recursive: true }))
    .filter((f) => f.endsWith(".json") && dirname(f) !== ".")
    .sort();

/** The files the demo index is built from (for the demo cache's fingerprint). */
export const demoFiles = async (): Promise<string[]> => [
  ...(await guideFiles()).map((f) => join(GUIDES, f)),
  CORPUS,
];

/**
 * Builds the demo course-material index from the data the package ships: the two UGR teaching
 * guides, one document per section (asignatura `metaheuristicas`, `modelos_avanzados_computacion`),
 * and 400 SciFact abstracts (asignatura `scifact`, tipo_documento `abstract`). Replaces the file.
 */
export const buildDemoIndex = async (indexPath: string) => {
  const docs: SearchDocument[] = [];
  for (const file of await guideFiles()) {
    const guide = JSON.parse(await readFile(join(GUIDES, file), "utf8")) as Record<string, unknown>;
    docs.push(...guideDocuments(guide, slug(dirname(file)), `ugr-guia-docente/${file}`));
  }
  for (const line of (await readFile(CORPUS, "utf8")).split("\n").filter((l) => l.trim())) {
    const { _id, title, text } = JSON.parse(line) as { _id: string; title?: string; text: string };
    const metadata = {
      source: `scifact/corpus.jsonl#${_id}`,
      asignatura: "scifact",
      tipo_documento: "abstract",
    };
    docs.push({ id: `scifact/${_id}`, ...(title ? { title } : {}), text, metadata });
  }
  const path = resolve(indexPath);
  await mkdir(dirname(path), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${path}${suffix}`, { force: true });
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
