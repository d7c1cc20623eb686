import { mkdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { slug } from "@quiver/core";
import type { ChunkOptions, LoadError, SearchDocument } from "@quiver/search";
import { guideDocuments, isGuide } from "./guide-documents.js";

/** Options of `indexFolder`. */
export interface IndexFolderOptions {
  /** The index file (created when missing; documents with the same id are replaced). */
  readonly indexPath: string;
  /** Write to this PostgreSQL index instead of the file (the plugin's `databaseUrl` setting). */
  readonly database?:
    | { readonly databaseUrl: string; readonly schema?: string; readonly name?: string }
    | undefined;
  /** Subject of every document that does not name its own (default: the first folder level). */
  readonly asignatura?: string | undefined;
  /** Document type of every document that does not name its own (default: the second folder level). */
  readonly tipo_documento?: string | undefined;
  /** Collection inside the index (default `default`). */
  readonly collection?: string | undefined;
  /** Chunking in words (default 300 with 50 overlap). */
  readonly chunk?: Partial<ChunkOptions> | undefined;
  /** Called as files are read and documents are indexed (for a progress bar). */
  readonly onProgress?:
    | ((progress: {
        readonly phase: "read" | "index";
        readonly done: number;
        readonly total: number;
      }) => void)
    | undefined;
}

/** What `indexFolder` did: documents added and replaced, chunks, and what could not be read or is unsupported. */
export type IndexFolderReport = Awaited<ReturnType<typeof indexFolder>>;

const GENERIC_GUIDE_NAMES = new Set(["guia_docente", "guia", "guide", "index"]);

/** Subject and type from the path `<asignatura>/<tipo_documento>/<file>`, the record, or the options. */
const tag = (doc: SearchDocument, options: IndexFolderOptions): SearchDocument => {
  const m = doc.metadata ?? {};
  const source = typeof m.source === "string" ? m.source : "";
  const folders = source.split("/").slice(0, -1);
  const pick = (own: unknown, option: string | undefined, fromPath: string | undefined) => {
    const v = typeof own === "string" && own.trim() !== "" ? own : (option ?? fromPath);
    return v ? slug(v) : undefined;
  };
  const asignatura = pick(m.asignatura, options.asignatura, folders[0]);
  const tipo = pick(m.tipo_documento, options.tipo_documento, folders[1]);
  return {
    ...doc,
    metadata: { ...m, ...(asignatura ? { asignatura } : {}), ...(tipo ? { tipo_documento: tipo } : {}) },
  };
};

/**
 * Indexes a folder (or one file) of course material into the embedded index: Markdown, plain text, JSON
 * Lines, JSON, BibTeX (read by @quiver/search's `loadDocuments`) and UGR-style teaching guides (one
 * document per section). Subject and document type come from each record or front matter, else the
 * options, else the folder layout `<asignatura>/<tipo_documento>/<file>`; both are stored as slugs so
 * `rag_search` filters match "Metaheurísticas" and "metaheuristicas" alike. Backs `quiver rag index <folder>`.
 *
 * @example
 * const report = await indexFolder("./material", { indexPath: ".quiver/rag-index.db", onProgress: (p) => bar.update(p.done, p.total) })
 * console.log(`${report.documents} documents, ${report.chunks} chunks in ${report.durationMs} ms`)
 */
export const indexFolder = async (folder: string, options: IndexFolderOptions) => {
  const started = performance.now();
  const root = resolve(folder);
  options.onProgress?.({ phase: "read", done: 0, total: 1 });
  // @quiver/search is loaded when a folder is indexed, not when the plugin is (see `quiver list`).
  const { loadDocuments, openSearchIndex } = await import("@quiver/search");
  const loaded = await loadDocuments(root);
  const errors: LoadError[] = [];
  const documents: SearchDocument[] = [...loaded.documents];
  const dir = (await stat(root)).isDirectory() ? root : dirname(root);
  // Teaching guides have no text field, so loadDocuments reports them: turn each into section documents.
  for (const error of loaded.errors) {
    if (extname(error.path).toLowerCase() === ".json" && error.line === undefined) {
      try {
        const value: unknown = JSON.parse(await readFile(join(dir, error.path), "utf8"));
        if (isGuide(value)) {
          const stem = slug(basename(error.path, extname(error.path)));
          const subject = slug(
            typeof value.subject === "string"
              ? value.subject
              : GENERIC_GUIDE_NAMES.has(stem)
                ? basename(dirname(join(dir, error.path)))
                : stem,
          );
          documents.push(...guideDocuments(value, subject, error.path));
          continue;
        }
      } catch {
        /* reported below as it was */
      }
    }
    errors.push(error);
  }
  options.onProgress?.({ phase: "read", done: 1, total: 1 });
  const tagged = documents.map((d) => tag(d, options));
  const chunk = options.chunk ? { chunk: options.chunk } : {};
  const { database } = options;
  if (!database) await mkdir(dirname(resolve(options.indexPath)), { recursive: true });
  const index = await openSearchIndex(
    database ? { ...database, ...chunk } : { path: resolve(options.indexPath), ...chunk },
  );
  try {
    const { added, replaced, chunks } = await index.add(tagged, {
      ...(options.collection ? { collection: options.collection } : {}),
      onProgress: (done, total) => options.onProgress?.({ phase: "index", done, total }),
    });
    return {
      indexPath: database ? (await index.stats()).path : resolve(options.indexPath),
      documents: tagged.length,
      added,
      replaced,
      chunks,
      errors,
      skipped: loaded.skipped,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await index.close();
  }
};
