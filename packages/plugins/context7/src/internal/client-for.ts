import { fail, type HttpClient, ToolFailure } from "@quiver/core";
import type { Context7Config } from "../config.js";
import type { DocsClient, DocsRequestOptions } from "../docs-client.js";
import { httpDocsClient } from "./http-docs-client.js";
import { mcpDocsClient } from "./mcp-docs-client.js";

/** Any failure of an injected transport that is not a ToolFailure means the transport is down. */
const guard =
  <A extends unknown[], R>(what: string, f: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await f(...args);
    } catch (error) {
      const options = args[args.length - 1] as DocsRequestOptions | undefined;
      if (ToolFailure.isInstance(error) || options?.signal.aborted) throw error;
      throw fail.unavailable(
        `Context7 (${what}) failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

/**
 * The transport for this call: an injected `docsClient`, the MCP server through `mcpClient`
 * (transport "mcp"), or the HTTP API through the runtime's shared client.
 */
export const docsClientFor = (config: Context7Config, http: HttpClient): DocsClient => {
  const [what, client] = config.docsClient
    ? (["injected transport", config.docsClient] as const)
    : config.transport === "mcp" && config.mcpClient
      ? (["MCP transport", mcpDocsClient(config.mcpClient)] as const)
      : (["HTTP API", httpDocsClient({ http, baseUrl: config.baseUrl, apiKey: config.apiKey })] as const);
  return {
    searchLibraries: guard(what, (request, options) => client.searchLibraries(request, options)),
    getContext: guard(what, (request, options) => client.getContext(request, options)),
  };
};
