import { definePlugin, type InjectMode, type Plugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { indexCommand } from "./commands/index.js";
import { backendOf, describeLocation, indexLocationOf, type RagConfig, ragConfigSchema } from "./config.js";
import { ragDemo } from "./demo.js";
import type { RagResources } from "./internal/backends/embedded-backend.js";
import { ragResourceTemplates, watchRagResources } from "./resources.js";
import { ragSearch } from "./tools/search.js";

export { DEFAULT_INDEX_PATH, type RagConfig, ragConfigSchema } from "./config.js";
export type { RagResources } from "./internal/backends/embedded-backend.js";
export { type RagOutput, type RagQuery, type RagResult, ragOutputSchema } from "./tools/search.js";
/**
 * Options of `createRagPlugin`: defaults for the settings (`ragConfigSchema`; environment and host
 * config win), and how the session's `asignatura` is used (default `default`): `default` keeps the
 * field visible and fills it from the session when left out; `override` hides it and always takes
 * the session's value.
 */
export type RagPluginOptions = PluginOptions<typeof ragConfigSchema> & {
  readonly sessionAsignatura?: InjectMode;
};

/**
 * Creates the rag plugin: the `rag_search` tool over an HTTP RAG service or an embedded index, the
 * `quiver rag index <folder…>` command that builds the index, and a demo step over the data it ships.
 *
 * @example
 * catalog.register(createRagPlugin({ indexPath: "./course.db" }))
 * await catalog.call("rag_search", { query: "criterios de evaluación" }, { session: { values: { asignatura: "metaheuristicas" } } })
 */
export const createRagPlugin = (options: RagPluginOptions = {}): Plugin<RagConfig, RagResources> => {
  const { sessionAsignatura = "default", ...defaults } = options;
  return definePlugin<RagConfig, RagResources>({
    id: "rag",
    version: pkg.version,
    description:
      "Search over course material: an HTTP RAG service or an embedded index (SQLite FTS5 or PostgreSQL).",
    instructions:
      "Use rag_search for passages of the course material (notes, guides, exercises) to ground an answer, citing their source; not for a subject's official grading rules (its teaching guide) nor for news on the web.",
    config: ragConfigSchema,
    defaults,
    // The embedded index's documents, whole, and each collection's list (see the README's Resources).
    resourceTemplates: ragResourceTemplates,
    watchResources: watchRagResources,
    tools: [{ ...ragSearch, inject: { asignatura: { from: "asignatura", mode: sessionAsignatura } } }],
    // Loaded at the first call, not at import: `quiver list` never opens the embedded index.
    setup: (ctx) => import("./internal/backends/embedded-backend.js").then((m) => m.setupRag(ctx)),
    commands: [indexCommand],
    demo: ragDemo,
    health: async ({ config: c, resources, http, signal }) => {
      if (backendOf(c) === "http") {
        // Loaded only for the check: the HTTP client is not needed to list the plugin.
        const { searchHttp } = await import("./internal/backends/http-backend.js");
        const fix = "Check RAG_SERVICE_URL and that the service is running.";
        return searchHttp(http, c, { query: "health check", topK: 1 }, signal).then(
          () => ({ ok: true, message: `RAG service ${new URL(c.serviceUrl!).origin} answers.` }),
          (error: Error) => ({ ok: false, message: error.message, fix }),
        );
      }
      const at = `Embedded index ${describeLocation(indexLocationOf(c))}`;
      try {
        const { documents, chunks } = await (await resources.embedded()).stats();
        if (documents > 0) return { ok: true, message: `${at}: ${documents} documents, ${chunks} chunks.` };
        return { ok: false, message: `${at} is empty.`, fix: "Run `quiver rag index <folder>`." };
      } catch (error) {
        const fix = "Run `quiver rag index <folder>` or set RAG_INDEX_PATH.";
        return { ok: false, message: (error as Error).message, fix };
      }
    },
  });
};

/**
 * The rag plugin with settings from the environment (RAG_SERVICE_URL for a RAG service, else the
 * embedded index at RAG_INDEX_PATH); the host imports this default export.
 *
 * @example
 * import rag from "@quiver/plugin-rag"
 * catalog.register(rag)
 */
export default createRagPlugin();
