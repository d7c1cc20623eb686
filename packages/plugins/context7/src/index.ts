import { createContext7Plugin } from "./plugin.js";

export {
  type Context7Config,
  type Context7PluginOptions,
  context7ConfigSchema,
  DEFAULT_BASE_URL,
} from "./config.js";
export {
  type DocsClient,
  type DocsContext,
  type DocsRequestOptions,
  type DocsSource,
  isDocsClient,
  isMcpToolCaller,
  type LibraryMatch,
  type McpCallResult,
  type McpContentBlock,
  type McpToolCaller,
} from "./docs-client.js";
export { createContext7Plugin } from "./plugin.js";
export { getLibraryDocs } from "./tools/get-library-docs.js";
export { resolveLibraryId } from "./tools/resolve-library-id.js";
export { searchDocumentation } from "./tools/search-documentation.js";
export { VERSION } from "./version.js";

/**
 * The Context7 plugin with default settings (HTTP API; `CONTEXT7_API_KEY` optional). Hosts import it.
 *
 * @example
 * import context7 from "@quiver/plugin-context7";
 * catalog.register(context7);
 */
export default createContext7Plugin();
