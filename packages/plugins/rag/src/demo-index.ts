import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { openSearchIndex, type SearchDocument } from "@quiver/search";
import { guideDocuments } from "./internal/guide-documents.js";
import { slug } from "./internal/slug.js";

/** Options of `buildDemoIndex`. */
export interface DemoIndexOptions {
  /** The index file to (re)build. */
  readonly indexPath: string;
  /** The shared data folder (default: QUIVER_SHARED_DATA, else `shared/data` found walking up from the working directory). */
  readonly dataDir?: string | undefined;
  /** SciFact abstracts to add as a second, English collection of material (default 1000; 0 for none). */
  readonly scifactDocs?: number | undefined;
}

/** What `buildDemoIndex` built. */
export interface DemoIndexReport {
  readonly indexPath: string;
  readonly documents: number;
  readonly chunks: number;
  /** Subjects (values of the `asignatura` filter) in the index. */
  readonly subjects: ReadonlyArray<string>;
  readonly durationMs: number;
}

/**
 * Finds the project's shared data folder: QUIVER_SHARED_DATA, else `shared/data` (holding a README.md)
 * beside the working directory or one of its parents. Undefined when there is none.
 *
 * @example
 * const dir = findSharedData() ?? "/path/to/shared/data"
 */
export const findSharedData = (from: string = process.cwd()): string | undefined => {
  const env = process.env.QUIVER_SHARED_DATA;
  if (env && existsSync(env)) return resolve(env);
  let dir = resolve(from);
  for (;;) {
    for (const candidate of [join(dir, "shared", "data"), join(dir, "..", "shared", "data")]) {
      if (existsSync(join(candidate, "README.md"))) return resolve(candidate);
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
};

/**
 * Builds a demo course-material index from the project's real data, so a new user can ask real questions
 * at once: the two UGR teaching guides (Metaheurísticas, Modelos Avanzados de Computación), one document
 * per section, and a slice of the SciFact abstracts (asignatura `scifact`). Replaces the file. About a
 * second for the default slice.
 *
 * @example
 * await buildDemoIndex({ indexPath: ".quiver/rag-index.db" })
 * // rag_search({ query: "¿cómo se evalúa?", asignatura: "metaheuristicas" }) now answers from the guide
 */
export const buildDemoIndex = async (options: DemoIndexOptions): Promise<DemoIndexReport> => {
  const started = performance.now();
  const data = options.dataDir ?? findSharedData();
  if (!data || !existsSync(data)) {
    throw new Error(
      "The shared data folder was not found: pass dataDir or set QUIVER_SHARED_DATA to the folder holding ugr-guia-docente/.",
    );
  }
  const docs: SearchDocument[] = [];
  const guides = join(data, "ugr-guia-docente");
  if (existsSync(guides)) {
    for (const entry of (await readdir(guides, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .sort((a, b) => a.name.localeCompare(b.name))) {
      for (const file of await readdir(join(guides, entry.name))) {
        if (!file.endsWith(".json")) continue;
        const guide = JSON.parse(await readFile(join(guides, entry.name, file), "utf8")) as Record<
          string,
          unknown
        >;
        docs.push(...guideDocuments(guide, slug(entry.name), `ugr-guia-docente/${entry.name}/${file}`));
      }
    }
  }
  const wanted = options.scifactDocs ?? 1000;
  const corpus = join(data, "beir-scifact", "corpus.jsonl");
  if (wanted > 0 && existsSync(corpus)) {
    const lines = (await readFile(corpus, "utf8")).split("\n", wanted);
    for (const line of lines) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { _id: string; title?: string; text: string };
      docs.push({
        id: `scifact/${r._id}`,
        ...(r.title ? { title: r.title } : {}),
        text: r.text,
        metadata: {
          source: `beir-scifact/corpus.jsonl#${r._id}`,
          asignatura: "scifact",
          tipo_documento: "abstract",
        },
      });
    }
  }
  if (docs.length === 0)
    throw new Error(`No demo material under ${data} (expected ugr-guia-docente/ or beir-scifact/).`);
  const path = resolve(options.indexPath);
  await mkdir(dirname(path), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${path}${suffix}`, { force: true });
  const index = await openSearchIndex({ path });
  try {
    const result = await index.add(docs);
    return {
      indexPath: path,
      documents: docs.length,
      chunks: result.chunks,
      subjects: [...new Set(docs.map((d) => String(d.metadata?.asignatura)))].sort(),
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await index.close();
  }
};
