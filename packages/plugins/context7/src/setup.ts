import type { SetupContext } from "@quiver/core";
import type { Context7Config } from "./config.js";
import { type DocsClient, unavailableOnError } from "./internal/docs-client.js";
import { httpDocsClient } from "./internal/http-docs-client.js";
import { type LibraryCache, libraryCache } from "./internal/library-cache.js";
import { mcpDocsClient } from "./internal/mcp-docs-client.js";

/** What the Context7 tools share for one registration (`ctx.resources`). */
export interface Context7Resources {
  /** The transport: an injected `docsClient`, the MCP server, or the HTTP API. */
  readonly docs: DocsClient;
  /** Which transport `docs` is, for messages ("HTTP API", "MCP transport", "injected transport"). */
  readonly transport: string;
  /** Resolved library ids by normalised name, kept for `libraryCacheTtl`. */
  readonly libraries: LibraryCache;
}

/**
 * Opens the transport the settings name: an injected `docsClient`; for `transport: "mcp"` an
 * `mcpClient`, or a connection to the `mcp` server (closed with the registration); else the HTTP API
 * through the catalog's client. The MCP SDK's client (`@modelcontextprotocol/client`, an optional peer) is
 * imported only here, for the MCP transport: importing the plugin (`quiver list`, a server that never calls
 * Context7) stays light, and a missing SDK leaves the plugin unconfigured with a message naming the package.
 */
export const setupContext7 = async ({
  config,
  http,
  env,
  onClose,
  clock,
}: SetupContext<Context7Config>): Promise<Context7Resources> => {
  const libraries = libraryCache(config.libraryCacheTtl, clock);
  const injected = config.docsClient;
  if (injected) {
    // Its plain errors are Context7 being unavailable, named after it.
    const failed = "Context7 (injected transport) failed";
    const docs: DocsClient = {
      searchLibraries: (request, options) =>
        unavailableOnError(failed, options.signal, () => injected.searchLibraries(request, options)),
      getContext: (request, options) =>
        unavailableOnError(failed, options.signal, () => injected.getContext(request, options)),
    };
    return { docs, transport: "injected transport", libraries };
  }
  // The schema requires `mcp` or `mcpClient` for this transport.
  if (config.transport === "mcp") {
    let caller = config.mcpClient;
    if (!caller) {
      const { connectContext7Mcp } = await import("./internal/mcp-connection.js");
      const connection = await connectContext7Mcp(config.mcp!, config, env);
      onClose(() => connection.close());
      caller = connection;
    }
    return { docs: mcpDocsClient(caller), transport: "MCP transport", libraries };
  }
  return { docs: httpDocsClient(http, config), transport: "HTTP API", libraries };
};
