import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type CommandContext, CommandUsageError } from "@quiver/core";
import { backendOf, describeLocation, indexLocationOf, type RagConfig } from "../config.js";
import { type IndexFolderReport, indexFolder } from "../internal/index-folder.js";
import type { RagResources } from "../setup.js";

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/** The reports of several folders as one (the index file is the same). */
const merge = (reports: ReadonlyArray<IndexFolderReport>, indexPath: string): IndexFolderReport => ({
  indexPath,
  documents: reports.reduce((n, r) => n + r.documents, 0),
  added: reports.reduce((n, r) => n + r.added, 0),
  replaced: reports.reduce((n, r) => n + r.replaced, 0),
  chunks: reports.reduce((n, r) => n + r.chunks, 0),
  errors: reports.flatMap((r) => r.errors),
  skipped: reports.flatMap((r) => r.skipped),
  durationMs: reports.reduce((n, r) => n + r.durationMs, 0),
});

/**
 * The body of `quiver rag index <folder…>` (its definition is in index.ts): indexes the folders and
 * reports; kept apart so listing the command does not load the document readers and the index.
 */
export const runIndex = async (ctx: CommandContext<RagConfig, RagResources>): Promise<number> => {
  if (ctx.args.length === 0)
    throw new CommandUsageError("Give at least one folder to index.", "quiver rag index ./material");
  const folders = ctx.args.map((f) => resolve(ctx.cwd, f));
  const missing = ctx.args.filter((_, i) => !existsSync(folders[i]!));
  if (missing.length > 0) {
    throw new CommandUsageError(
      `${missing.join(", ")} does not exist.`,
      "Give a folder (or file) of course material, e.g. quiver rag index ./material.",
    );
  }
  const flagged = text(ctx.flags.index);
  // An explicit --index file wins; otherwise the configured location (PostgreSQL when DATABASE_URL is set).
  const location = flagged
    ? { path: resolve(ctx.cwd, flagged) }
    : indexLocationOf({ ...ctx.config, indexPath: resolve(ctx.cwd, ctx.config.indexPath) });
  const indexPath = describeLocation(location);
  const database = "path" in location ? undefined : location;
  if (backendOf(ctx.config) === "http") {
    ctx.warn(
      "note: rag is set to the HTTP backend (RAG_SERVICE_URL); the embedded index built here is not what it serves.",
    );
  }
  const asignatura = text(ctx.flags.asignatura);
  const tipo = text(ctx.flags.tipo);
  const collection = text(ctx.flags.collection);
  const reports: IndexFolderReport[] = [];
  for (const folder of folders) {
    reports.push(
      await indexFolder(folder, {
        indexPath,
        ...(database ? { database } : {}),
        ...(asignatura ? { asignatura } : {}),
        ...(tipo ? { tipo_documento: tipo } : {}),
        ...(collection ? { collection } : {}),
        onProgress: (p) => ctx.progress(p.done, p.total, p.phase === "read" ? "reading files" : "documents"),
      }),
    );
  }
  const report = merge(reports, indexPath);
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
};
