import { createRagPlugin } from "./create-rag-plugin.js";

export type { InjectMode as SessionAsignatura } from "@quiver/core";
export { DEFAULT_INDEX_PATH, RAG_ENV, type RagConfig, ragConfigSchema } from "./config.js";
export { createRagPlugin, type RagPluginOptions } from "./create-rag-plugin.js";
export { buildDemoIndex, type DemoIndexOptions, type DemoIndexReport, findSharedData } from "./demo-index.js";
export {
  type IndexFolderOptions,
  type IndexFolderReport,
  type IndexProgress,
  indexFolder,
} from "./index-folder.js";
export { normalizeHit, normalizeResults } from "./normalize-results.js";
export { type RagOutput, type RagQuery, type RagResult, ragOutputSchema } from "./output.js";
export { makeRagSearchTool, type RagSearchDeps } from "./tools/rag-search.js";
export { VERSION } from "./version.js";

/**
 * The rag plugin with settings from the environment (RAG_SERVICE_URL for a RAG service, else the
 * embedded index at RAG_INDEX_PATH); the host imports this default export.
 *
 * @example
 * import rag from "@quiver/plugin-rag"
 * catalog.register(rag)
 */
export default createRagPlugin();
