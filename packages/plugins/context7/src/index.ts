import { definePlugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { context7ConfigSchema } from "./config.js";
import { docsPrompt } from "./docs-prompt.js";
import { search } from "./internal/resolve-library.js";
import { setupContext7 } from "./setup.js";
import { getLibraryDocs } from "./tools/get-library-docs.js";
import { resolveLibraryId } from "./tools/resolve-library-id.js";
import { searchDocumentation } from "./tools/search-documentation.js";

export type { Context7Config } from "./config.js";
// The transport's types: DocsClient, its requests' options and what it returns.
export type * from "./internal/docs-client.js";
export type { Context7Resources } from "./setup.js";
/**
 * Options of {@link createContext7Plugin}: defaults for the plugin's settings (`context7ConfigSchema`).
 * Environment variables (`CONTEXT7_API_KEY`, `CONTEXT7_API_URL`) and the host's per-plugin options win over them.
 *
 * @example
 * const options: Context7PluginOptions = { baseUrl: "https://context7.com/api", libraryCacheTtl: "1d" };
 */
export type Context7PluginOptions = PluginOptions<typeof context7ConfigSchema>;

/**
 * Creates the Context7 plugin: `context7_search_documentation`, `context7_resolve_library_id` and
 * `context7_get_library_docs`. Options are defaults; `CONTEXT7_API_KEY`/`CONTEXT7_API_URL` and the
 * host's plugin options win over them. It calls Context7's HTTP API, or the `docsClient` it is given.
 *
 * @example
 * const catalog = createCatalog();
 * catalog.register(createContext7Plugin({ libraryCacheTtl: "1d" }));
 * const result = await catalog.call("context7_search_documentation", { query: "useEffect cleanup", library: "react" });
 */
export const createContext7Plugin = (options: Context7PluginOptions = {}) =>
  definePlugin({
    id: "context7",
    version: pkg.version,
    description: "Up-to-date library documentation and code examples from Context7.",
    config: context7ConfigSchema,
    defaults: options,
    tools: [searchDocumentation, resolveLibraryId, getLibraryDocs],
    // Answer from a library's docs; its library_id completes from the ids the caller has resolved.
    prompts: [docsPrompt],
    instructions:
      "Use context7's tools for current documentation whenever the user asks about a specific library, framework, SDK, API, " +
      "CLI or cloud service (its API, setup, configuration, version migration or library-specific errors), even a well-known " +
      "one: your training data may be dated. Prefer them to web search for library docs. Not for general programming concepts, " +
      "refactoring, code review, scripts from scratch or debugging business logic.",
    aliasSets: [
      {
        name: "context7-mcp",
        description:
          "The tool and parameter names of the official Context7 MCP server (@upstash/context7-mcp).",
        tools: [
          {
            alias: "resolve-library-id",
            tool: resolveLibraryId.name,
            parameters: { libraryName: "library_name", query: "query" },
          },
          {
            alias: "query-docs",
            tool: getLibraryDocs.name,
            parameters: { libraryId: "library_id", query: "query" },
          },
        ],
      },
    ],
    setup: setupContext7,
    health: async ({ config, resources, signal }) => {
      try {
        const found = await search({ resources, signal }, "react", "react hooks");
        return {
          ok: true,
          message: `Context7 (${resources.transport}) answered a library search (${found.length} results)${config.apiKey ? " with an API key" : " anonymously (set CONTEXT7_API_KEY for higher limits)"}.`,
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

/**
 * The Context7 plugin with default settings (HTTP API; `CONTEXT7_API_KEY` optional). Hosts import it.
 *
 * @example
 * import context7 from "@quiver/plugin-context7";
 * catalog.register(context7);
 */
export default createContext7Plugin();
