import type { PluginCommand } from "@quiver/core";
import type { RagConfig } from "../config.js";
import type { RagResources } from "../setup.js";

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
    index: {
      type: "string",
      value: "<file>",
      description: "Index file to write (overrides RAG_INDEX_PATH and DATABASE_URL for this run)",
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
    "quiver rag index ./apuntes ./examenes --asignatura metaheuristicas --tipo apuntes --json",
  ],
  // The body (readers, index) is loaded only when the command runs, not when it is listed.
  run: (ctx) => import("./index-run.js").then((m) => m.runIndex(ctx)),
};
