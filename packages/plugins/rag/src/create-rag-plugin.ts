import { definePlugin, type InjectMode, type Plugin } from "@quiver/core";
import { z } from "zod";
import { searchHttp } from "./backends/http-backend.js";
import { backendOf, indexPathOf, RAG_ENV, type RagConfig, ragConfigSchema } from "./config.js";
import { makeRagSearchTool } from "./tools/rag-search.js";
import { VERSION } from "./version.js";

/** Options of `createRagPlugin`: defaults for the settings (environment and host config win). */
export interface RagPluginOptions {
  /** http or embedded (env RAG_BACKEND; default http when a service URL is set). */
  readonly backend?: "http" | "embedded";
  /** RAG service base URL (env RAG_SERVICE_URL). */
  readonly serviceUrl?: string;
  /** RAG service key (env RAG_API_KEY). */
  readonly apiKey?: string;
  /** Deadline of one search request, ms (env RAG_TIMEOUT_MS, default 10000). */
  readonly timeoutMs?: number;
  /** Embedded index file (env RAG_INDEX_PATH, default .quiver/rag-index.db). */
  readonly indexPath?: string;
  /** Results when top_k is not given (env RAG_TOP_K, default 5). */
  readonly defaultTopK?: number;
  /**
   * How the session's `asignatura` is used (default `default`): `default` keeps the field visible and
   * fills it from the session when left out; `override` hides it and always takes the session's value.
   */
  readonly sessionAsignatura?: InjectMode;
}

/**
 * Creates the rag plugin: one tool, `rag_search`, over an HTTP RAG service or an embedded index.
 *
 * @example
 * catalog.register(createRagPlugin({ indexPath: "./course.db" }))
 * await catalog.call("rag_search", { query: "criterios de evaluación" }, { session: { values: { asignatura: "metaheuristicas" } } })
 */
export const createRagPlugin = (options: RagPluginOptions = {}): Plugin<RagConfig> => {
  const { sessionAsignatura = "default", ...defaults } = options;
  const given = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined));
  const config = z.preprocess(
    (raw) => (raw && typeof raw === "object" ? { ...given, ...(raw as Record<string, unknown>) } : raw),
    ragConfigSchema,
  ) as unknown as z.ZodType<RagConfig>;
  const embedded = new Map<string, Promise<import("./backends/embedded-backend.js").EmbeddedBackend>>();
  const embeddedFor = (c: RagConfig) => {
    const path = indexPathOf(c);
    let backend = embedded.get(path);
    if (!backend) {
      backend = import("./backends/embedded-backend.js").then((m) => m.openEmbeddedBackend(path));
      backend.catch(() => embedded.delete(path));
      embedded.set(path, backend);
    }
    return backend;
  };
  return definePlugin<RagConfig>({
    specificationVersion: "v1",
    id: "rag",
    version: VERSION,
    description: "Search over course material: an HTTP RAG service or an embedded SQLite FTS5 index.",
    config,
    env: RAG_ENV,
    tools: [
      makeRagSearchTool({
        sessionAsignatura,
        search: async (q, c, ctx) =>
          backendOf(c) === "http" ? searchHttp(ctx.http, c, q, ctx.signal) : (await embeddedFor(c)).search(q),
      }),
    ],
    health: async ({ config: c, http, signal }) => {
      if (backendOf(c) === "embedded") {
        try {
          const stats = await (await embeddedFor(c)).stats();
          return stats.documents > 0
            ? {
                ok: true,
                message: `Embedded index ${indexPathOf(c)}: ${stats.documents} documents, ${stats.chunks} chunks.`,
              }
            : {
                ok: false,
                message: `Embedded index ${indexPathOf(c)} is empty.`,
                fix: "Run `quiver rag index <folder>`.",
              };
        } catch (error) {
          return {
            ok: false,
            message: (error as Error).message,
            fix: "Run `quiver rag index <folder>` or set RAG_INDEX_PATH.",
          };
        }
      }
      try {
        await searchHttp(http, c, { query: "health check", topK: 1 }, signal);
        return { ok: true, message: `RAG service ${new URL(c.serviceUrl!).origin} answers.` };
      } catch (error) {
        return {
          ok: false,
          message: (error as Error).message,
          fix: "Check RAG_SERVICE_URL and that the service is running.",
        };
      }
    },
    dispose: async () => {
      const open = [...embedded.values()];
      embedded.clear();
      await Promise.all(open.map((p) => p.then((b) => b.close()).catch(() => undefined)));
    },
  });
};
