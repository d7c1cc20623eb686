import { definePlugin, type HealthReport, type Plugin } from "@quiver/core";
import {
  CONTEXT7_ENV,
  type Context7Config,
  type Context7PluginOptions,
  context7ConfigSchema,
} from "./config.js";
import { docsClientFor } from "./internal/client-for.js";
import { getLibraryDocs } from "./tools/get-library-docs.js";
import { resolveLibraryId } from "./tools/resolve-library-id.js";
import { searchDocumentation } from "./tools/search-documentation.js";
import { VERSION } from "./version.js";

/**
 * Creates the Context7 plugin: `context7_search_documentation`, `context7_resolve_library_id` and
 * `context7_get_library_docs`. Options are defaults; `CONTEXT7_API_KEY`/`CONTEXT7_API_URL` and the
 * host's plugin options win over them.
 *
 * Use it to give an agent current library documentation; pass `transport: "mcp"` with the host's
 * MCP client bridge to go through the Context7 MCP server instead of the HTTP API.
 *
 * @example
 * const catalog = createCatalog();
 * catalog.register(createContext7Plugin({ libraryCacheTtl: "1d" }));
 * const result = await catalog.call("context7_search_documentation", { query: "useEffect cleanup", library: "react" });
 */
export const createContext7Plugin = (options: Context7PluginOptions = {}): Plugin<Context7Config> =>
  definePlugin<Context7Config>({
    specificationVersion: "v1",
    id: "context7",
    version: VERSION,
    description: "Up-to-date library documentation and code examples from Context7.",
    config: context7ConfigSchema(options),
    env: CONTEXT7_ENV,
    tools: [searchDocumentation, resolveLibraryId, getLibraryDocs],
    health: async ({ config, http, signal }): Promise<HealthReport> => {
      try {
        const found = await docsClientFor(config, http).searchLibraries(
          { libraryName: "react", query: "react hooks" },
          { signal },
        );
        return {
          ok: true,
          message: `Context7 (${config.docsClient ? "injected transport" : config.transport}) answered a library search (${found.length} results)${config.apiKey ? " with an API key" : " anonymously (set CONTEXT7_API_KEY for higher limits)"}.`,
        };
      } catch (error) {
        const failure = error as { message?: string; suggestion?: string };
        return {
          ok: false,
          message: `Context7 did not answer a library search: ${failure.message ?? String(error)}`,
          fix: failure.suggestion ?? `Check that ${config.baseUrl} is reachable from this host.`,
        };
      }
    },
  });
