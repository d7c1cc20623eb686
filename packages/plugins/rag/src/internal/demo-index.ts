import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { slug } from "@quiver/core";
import type { SearchDocument } from "@quiver/search";
import { DEMO_DIR } from "../demo.js";
import { guideDocuments } from "./guide-documents.js";

const GUIDES = join(DEMO_DIR, "ugr-guia-docente");
const CORPUS = join(DEMO_DIR, "scifact", "corpus.jsonl");

/** What `buildDemoIndex` built. */
export interface DemoIndexReport {
  readonly indexPath: string;
  readonly documents: number;
  readonly chunks: number;
  /** Subjects (values of the `asignatura` filter) in the index. */
  readonly subjects: ReadonlyArray<string>;
}

/** The guide files of the demo data, `<subject>/<file>.json` under `ugr-guia-docente/`, sorted. */
const guideFiles = async (): Promise<Array<{ subject: string; file: string }>> => {
  const out: Array<{ subject: string; file: string }> = [];
  for (const entry of (await readdir(GUIDES, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))) {
    for (const file of (await readdir(join(GUIDES, entry.name))).sort()) {
      if (file.endsWith(".json")) out.push({ subject: entry.name, file: join(GUIDES, entry.name, file) });
    }
  }
  return out;
};

/** The files the demo index is built from (for the demo cache's fingerprint). */
export const demoFiles = async (): Promise<string[]> => [...(await guideFiles()).map((g) => g.file), CORPUS];

/**
 * Builds the demo course-material index from the data the package ships: the two UGR teaching
 * guides, one document per section (asignatura `metaheuristicas`, `modelos_avanzados_computacion`),
 * and 400 SciFact abstracts (asignatura `scifact`, tipo_documento `abstract`). Replaces the file.
 */
export const buildDemoIndex = async (indexPath: string): Promise<DemoIndexReport> => {
  const docs: SearchDocument[] = [];
  for (const { subject, file } of await guideFiles()) {
    const guide = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    const source = `ugr-guia-docente/${subject}/${file.slice(join(GUIDES, subject).length + 1)}`;
    docs.push(...guideDocuments(guide, slug(subject), source));
  }
  if (existsSync(CORPUS)) {
    for (const line of (await readFile(CORPUS, "utf8")).split("\n")) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { _id: string; title?: string; text: string };
      docs.push({
        id: `scifact/${r._id}`,
        ...(r.title ? { title: r.title } : {}),
        text: r.text,
        metadata: {
          source: `scifact/corpus.jsonl#${r._id}`,
          asignatura: "scifact",
          tipo_documento: "abstract",
        },
      });
    }
  }
  if (docs.length === 0) throw new Error(`No demo material under ${DEMO_DIR}.`);
  const path = resolve(indexPath);
  await mkdir(dirname(path), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${path}${suffix}`, { force: true });
  const { openSearchIndex } = await import("@quiver/search");
  const index = await openSearchIndex({ path });
  try {
    const result = await index.add(docs);
    return {
      indexPath: path,
      documents: docs.length,
      chunks: result.chunks,
      subjects: [...new Set(docs.map((d) => String(d.metadata?.asignatura)))].sort(),
    };
  } finally {
    await index.close();
  }
};
