import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { type AnyPlugin, type Catalog, createCatalog } from "@quiver/core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { listen } from "./helpers.js";

/** How a test's SDK client connects: as whom, in which era, and whether it renders MCP Apps. */
export interface ConnectOptions {
  readonly principal?: "alice" | "bob";
  /** Pinned to 2026-07-28; else the SDK's default (2025-11-25). */
  readonly era?: "2026-07-28" | undefined;
  /** Declares the MCP Apps extension (the client renders `ui://` views). */
  readonly apps?: boolean;
}

/**
 * Serves `plugin` for one test file: a catalog behind `createMcpHttpHandler` on 127.0.0.1, with
 * alice's and bob's bearer tokens (`tok-alice`, `tok-bob`), closed after the file. `connect` opens an
 * MCP SDK client over Streamable HTTP, closed after each test.
 */
export const useServedPlugin = (plugin: AnyPlugin) => {
  let catalog: Catalog;
  let handler: McpHttpHandler;
  let http: Awaited<ReturnType<typeof listen>>;
  const clients: Client[] = [];
  beforeAll(async () => {
    catalog = createCatalog({ env: {} });
    catalog.register(plugin);
    handler = createMcpHttpHandler(catalog, { tokens: { "tok-alice": "alice", "tok-bob": "bob" } });
    http = await listen((req, res) => void handler(req, res));
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(async () => {
    await handler.close();
    await http.close();
    await catalog.close();
  });
  return {
    /** The served catalog (set once the file's `beforeAll` ran). */
    catalog: () => catalog,
    connect: async ({ principal = "alice", era, apps = false }: ConnectOptions = {}) => {
      const client = new Client(
        { name: `${plugin.id}-test`, version: "1.0.0" },
        {
          ...(era ? { versionNegotiation: { mode: { pin: era } } } : {}),
          ...(apps
            ? { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } }
            : {}),
        },
      );
      const headers = { authorization: `Bearer tok-${principal}` };
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers } }),
      );
      clients.push(client);
      return client;
    },
  };
};
