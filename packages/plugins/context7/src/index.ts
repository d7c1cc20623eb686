import { type DurationInput, definePlugin, type HealthReport, type Plugin } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { CONTEXT7_ENV, type Context7Config, type Context7McpTarget, context7ConfigSchema } from "./config.js";
import type { DocsClient, McpToolCaller } from "./internal/docs-client.js";
import type { Context7Resources } from "./setup.js";
import { getLibraryDocs } from "./tools/get-library-docs.js";
import { resolveLibraryId } from "./tools/resolve-library-id.js";
import { searchDocumentation } from "./tools/search-documentation.js";

export type { Context7Config, Context7McpTarget } from "./config.js";
export type {
  DocsClient,
  DocsContext,
  DocsRequestOptions,
  DocsSource,
  LibraryMatch,
  McpCallResult,
  McpContentBlock,
  McpToolCaller,
} from "./internal/docs-client.js";
export type { Context7Resources } from "./setup.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;

/**
 * Options of {@link createContext7Plugin}: defaults for the plugin's settings. Environment variables
 * (`CONTEXT7_API_KEY`, `CONTEXT7_API_URL`) and the host's per-plugin options win over them.
 *
 * @example
 * const options: Context7PluginOptions = { transport: "mcp", mcp: { command: "npx", args: ["-y", "@upstash/context7-mcp"] } };
 */
export interface Context7PluginOptions {
  /** Base URL of the HTTP API. Default `https://context7.com/api`. */
  readonly baseUrl?: string;
  /** Context7 API key; optional (anonymous calls get low rate limits). */
  readonly apiKey?: string;
  /** `"http"` (default) or `"mcp"` (needs `mcp` or `mcpClient`). */
  readonly transport?: "http" | "mcp";
  /** The Context7 MCP server for `transport: "mcp"`: `{ command, args?, env?, cwd? }` or `{ url, headers? }`. */
  readonly mcp?: Context7McpTarget;
  /** An MCP client already connected to the Context7 MCP server, instead of `mcp`. */
  readonly mcpClient?: McpToolCaller;
  /** A transport of your own; wins over `transport`. */
  readonly docsClient?: DocsClient;
  /** How long resolved library ids are reused. Default `"7d"`. */
  readonly libraryCacheTtl?: DurationInput;
}

/**
 * Creates the Context7 plugin: `context7_search_documentation`, `context7_resolve_library_id` and
 * `context7_get_library_docs`. Options are defaults; `CONTEXT7_API_KEY`/`CONTEXT7_API_URL` and the
 * host's plugin options win over them. The transport (HTTP API, or the Context7 MCP server with
 * `transport: "mcp"`) is opened in `setup` and closed with the catalog.
 *
 * @example
 * const catalog = createCatalog();
 * catalog.register(createContext7Plugin({ libraryCacheTtl: "1d" }));
 * const result = await catalog.call("context7_search_documentation", { query: "useEffect cleanup", library: "react" });
 */
export const createContext7Plugin = (
  options: Context7PluginOptions = {},
): Plugin<Context7Config, Context7Resources> =>
  definePlugin<Context7Config, Context7Resources>({
    specificationVersion: "v1",
    id: "context7",
    version: VERSION,
    description: "Up-to-date library documentation and code examples from Context7.",
    config: context7ConfigSchema,
    defaults: { ...options },
    env: CONTEXT7_ENV,
    tools: [searchDocumentation, resolveLibraryId, getLibraryDocs],
    // Loaded at the first call, not at import: `quiver list` never opens a transport.
    setup: (ctx) => import("./setup.js").then((m) => m.setupContext7(ctx)),
    health: async ({ config, resources, signal }): Promise<HealthReport> => {
      try {
        const found = await resources.docs.searchLibraries(
          { libraryName: "react", query: "react hooks" },
          { signal },
        );
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
