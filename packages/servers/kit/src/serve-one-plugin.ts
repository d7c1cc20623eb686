import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type AnyPlugin, createCatalog } from "@quiver/core";
import { createMcpHttpHandler, serveStdio } from "@quiver/mcp/server";
import type { ServerIdentity } from "./server-identity.js";

/** Where a one-plugin server answers: the process's stdin/stdout, or Streamable HTTP on a port. */
export type OnePluginTransport =
  | { readonly kind: "stdio" }
  | { readonly kind: "http"; readonly port: number; readonly host: string };

/** Options of {@link serveOnePlugin}. */
export interface ServeOnePluginOptions {
  /** The npm package, version and command the server is published as (the MCP server's name and version). */
  readonly server: ServerIdentity;
  readonly transport: OnePluginTransport;
  /** The environment the plugin's settings are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Out-of-band errors (a broken pipe, a failed stream). */
  readonly onError?: (error: Error) => void;
}

/** A running one-plugin server. */
export interface OnePluginServer {
  /** The Streamable HTTP endpoint (`http://127.0.0.1:3333/mcp`), with the HTTP transport. */
  readonly url?: string;
  /** Stops serving and closes the plugin (what its setup opened). */
  close(): Promise<void>;
}

/**
 * Serves one plugin over MCP: a catalog of that plugin alone (its settings from `env`, every call
 * made as `QUIVER_PRINCIPAL` when set), served by @quiver/mcp over stdio or Streamable HTTP. What
 * each bundled `@quiver/<plugin>-mcp` runs; a host of several plugins is @quiver/host.
 *
 * @example
 * const server = await serveOnePlugin(fdaPlugin, { server: { name: "@quiver/fda-mcp", version: "0.1.0", bin: "quiver-fda-mcp" }, transport: { kind: "stdio" } });
 * process.once("SIGTERM", () => void server.close());
 */
export const serveOnePlugin = async (
  plugin: AnyPlugin,
  options: ServeOnePluginOptions,
): Promise<OnePluginServer> => {
  const env = options.env ?? process.env;
  const catalog = createCatalog({ env });
  catalog.register(plugin);
  // The person the server runs for (a one-plugin server maps no tokens), as the host's QUIVER_PRINCIPAL.
  const principal = env.QUIVER_PRINCIPAL?.trim() || undefined;
  const identity = {
    name: options.server.name,
    version: options.server.version,
    ...(principal ? { principal } : {}),
  };
  const onError = options.onError ?? (() => {});
  if (options.transport.kind === "stdio") {
    const stdio = serveStdio(catalog, { ...identity, onError });
    return {
      close: async () => {
        await stdio.close();
        await catalog.close();
      },
    };
  }
  const handler = createMcpHttpHandler(catalog, { ...identity, onError });
  const http = createServer((req, res) => void handler(req, res));
  const { port, host } = options.transport;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => resolve());
  });
  const bound = http.address() as AddressInfo;
  const shownHost = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shownHost}:${bound.port}/mcp`,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await catalog.close();
    },
  };
};
