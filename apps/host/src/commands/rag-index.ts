import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { CommandSpec } from "../cli/command.js";
import { createProgress } from "../cli/progress.js";
import { EXIT, UsageError } from "../cli/usage-error.js";
import { pluginConfig, requireExport, requirePlugin } from "./plugin-helpers.js";

interface IndexFolderReport {
  readonly indexPath: string;
  readonly documents: number;
  readonly added: number;
  readonly replaced: number;
  readonly chunks: number;
  readonly errors: ReadonlyArray<{ path: string; line?: number; reason?: string; message?: string }>;
  readonly skipped: ReadonlyArray<string>;
  readonly durationMs: number;
}
type IndexFolder = (
  folder: string,
  options: {
    indexPath: string;
    asignatura?: string;
    tipo_documento?: string;
    collection?: string;
    onProgress?: (p: { phase: "read" | "index"; done: number; total: number }) => void;
  },
) => Promise<IndexFolderReport>;

/** `quiver rag index <folder>`: builds the rag plugin's embedded index from a folder of documents. */
export const ragIndexCommand: CommandSpec = {
  name: "rag index",
  summary: "Index a folder of documents for the rag plugin's embedded search",
  usage: "rag index <folder> [--index <file>] [--asignatura <id>] [--tipo <type>] [--json]",
  description:
    "Reads Markdown, text, JSON lines, JSON, BibTeX and teaching guides; subject and document type\ncome from each document, the options, or the layout <asignatura>/<tipo_documento>/<file>.\nWrites the index rag_search reads (RAG_INDEX_PATH, plugins.rag.options.indexPath, default\n.quiver/rag-index.db). Demo mode is off for this command. Exit code 1 when nothing was indexed.",
  positionals: { min: 1, max: 1, names: "<folder>" },
  options: {
    index: {
      type: "string",
      value: "<file>",
      description: "Index file to write (overrides RAG_INDEX_PATH for this run)",
    },
    asignatura: { type: "string", value: "<id>", description: "Subject of documents that do not name one" },
    tipo: { type: "string", value: "<type>", description: "Document type of documents that do not name one" },
    collection: {
      type: "string",
      value: "<name>",
      description: "Collection inside the index (default: default)",
    },
  },
  examples: [
    "quiver rag index ./material",
    "quiver rag index ./apuntes --asignatura metaheuristicas --tipo apuntes --json",
  ],
  run: async (ctx) => {
    const folder = resolve(ctx.args[0]!);
    if (!existsSync(folder)) throw new UsageError(`${ctx.args[0]} does not exist.`);
    return ctx.withHost(
      async (host) => {
        const rag = requirePlugin(host, "rag", "@quiver/plugin-rag");
        const indexFolder = requireExport<IndexFolder>(rag, "indexFolder");
        const config = await pluginConfig<{ indexPath: string; serviceUrl?: string; backend?: string }>(
          host,
          rag,
        );
        const chosen = (ctx.flags.index as string | undefined) ?? config.indexPath;
        const indexPath = isAbsolute(chosen) ? chosen : resolve(host.settings.cwd, chosen);
        const { out } = ctx;
        if (config.backend === "http" || (config.serviceUrl && config.backend !== "embedded")) {
          out.note(
            out.style.yellow(
              "note: rag is set to the HTTP backend (RAG_SERVICE_URL); the embedded index built here is not what it serves.",
            ),
          );
        }
        const progress = createProgress("indexing", { tty: out.errTty });
        const report = await indexFolder(folder, {
          indexPath,
          ...(ctx.flags.asignatura ? { asignatura: ctx.flags.asignatura as string } : {}),
          ...(ctx.flags.tipo ? { tipo_documento: ctx.flags.tipo as string } : {}),
          ...(ctx.flags.collection ? { collection: ctx.flags.collection as string } : {}),
          onProgress: (p) =>
            progress.update(p.done, p.total, p.phase === "read" ? "reading files" : "documents"),
        });
        progress.finish();
        if (out.json) out.printJson(report);
        else {
          const s = out.style;
          for (const e of report.errors) {
            out.print(
              `${s.yellow("not indexed")} ${e.path}${e.line !== undefined ? `:${e.line}` : ""}: ${e.reason ?? e.message ?? "unreadable"}`,
            );
          }
          for (const f of report.skipped)
            out.print(`${s.dim("skipped")} ${f} ${s.dim("(unsupported type)")}`);
          out.print(
            `${s.green("indexed")} ${report.documents} documents (${report.added} new, ${report.replaced} replaced, ${report.chunks} chunks) into ${report.indexPath} in ${report.durationMs} ms`,
          );
        }
        return report.documents > 0 ? EXIT.ok : EXIT.failed;
      },
      { demo: false },
    );
  },
};
