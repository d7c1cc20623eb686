import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { CommandUsageError, type PluginCommand } from "@quiver/core";
import { backendOf, describeLocation, indexLocationOf, type RagConfig } from "../config.js";
import type { RagResources } from "../internal/backends/embedded-backend.js";
import { readFolder, tag } from "../internal/index-folder.js";

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/** A string option with its help placeholder (`<file>`) and description. */
const option = (value: string, description: string) => ({ type: "string" as const, value, description });

/**
 * `quiver rag index <folder…>`: builds the embedded index `rag_search` reads from folders (or files)
 * of course material. Exit 1 when nothing was indexed.
 */
export const indexCommand: PluginCommand<RagConfig, RagResources> = {
  name: "index",
  summary: "Index folders of documents for the rag plugin's embedded search",
  description:
    "Reads Markdown, text, JSON lines, JSON, BibTeX and teaching guides; subject and document type\n" +
    "come from each document, the options, or the layout <asignatura>/<tipo_documento>/<file>.\n" +
    "Writes the index rag_search reads (RAG_INDEX_PATH, plugins.rag.options.indexPath, default\n" +
    ".quiver/rag-index.db); documents with the same id are replaced. Exit code 1 when nothing was indexed.",
  positionals: { min: 1, names: "<folder…>" },
  options: {
    index: option("<file>", "Index file to write (overrides RAG_INDEX_PATH and DATABASE_URL for this run)"),
    asignatura: option("<id>", "Subject of documents that do not name one"),
    tipo: option("<type>", "Document type of documents that do not name one"),
    collection: option("<name>", "Collection inside the index (default: default)"),
  },
  examples: [
    "quiver rag index ./material",
    "quiver rag index ./apuntes ./examenes --asignatura metaheuristicas --tipo apuntes --json",
  ],
  run: async (ctx) => {
    const folders = ctx.args.map((f) => resolve(ctx.cwd, f));
    const missing = ctx.args.filter((_, i) => !existsSync(folders[i]!));
    if (missing.length > 0)
      throw new CommandUsageError(
        `${missing.join(", ")} does not exist.`,
        "Give a folder (or file) of course material, e.g. quiver rag index ./material.",
      );
    const flagged = text(ctx.flags.index);
    // An explicit --index file wins; otherwise the configured location (PostgreSQL when DATABASE_URL is set).
    const location = flagged
      ? { path: resolve(ctx.cwd, flagged) }
      : indexLocationOf({ ...ctx.config, indexPath: resolve(ctx.cwd, ctx.config.indexPath) });
    if (backendOf(ctx.config) === "http")
      ctx.warn(
        "note: rag is set to the HTTP backend (RAG_SERVICE_URL); the embedded index built here is not what it serves.",
      );
    const started = performance.now();
    ctx.progress(0, folders.length, "reading files");
    // @quiver/search is loaded when a folder is indexed, not when the plugin is (see `quiver list`).
    const { loadDocuments, openSearchIndex } = await import("@quiver/search");
    const read = [];
    for (const folder of folders) {
      read.push(await readFolder(folder, loadDocuments));
      ctx.progress(read.length, folders.length, "reading files");
    }
    const defaults = { asignatura: text(ctx.flags.asignatura), tipo_documento: text(ctx.flags.tipo) };
    const documents = read.flatMap((r) => r.documents).map((d) => tag(d, defaults));
    // A SQLite file is created when missing; documents with the same id are replaced.
    if ("path" in location) await mkdir(dirname(resolve(location.path)), { recursive: true });
    const index = await openSearchIndex(location);
    const collection = text(ctx.flags.collection);
    const onProgress = (done: number, total: number) => ctx.progress(done, total, "documents");
    const options = { ...(collection && { collection }), onProgress };
    const counts = await index.add(documents, options).finally(() => index.close());
    const report = {
      indexPath: describeLocation(location),
      documents: documents.length,
      ...counts, // added, replaced, chunks
      errors: read.flatMap((r) => r.errors),
      skipped: read.flatMap((r) => r.skipped),
      durationMs: Math.round(performance.now() - started),
    };
    if (ctx.json) ctx.printJson(report);
    else {
      for (const e of report.errors)
        ctx.print(`not indexed ${e.path}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}`);
      for (const f of report.skipped) ctx.print(`skipped ${f} (unsupported type)`);
      ctx.print(
        `indexed ${report.documents} documents (${report.added} new, ${report.replaced} replaced, ${report.chunks} chunks) into ${report.indexPath} in ${report.durationMs} ms`,
      );
    }
    return report.documents > 0 ? 0 : 1;
  },
};
