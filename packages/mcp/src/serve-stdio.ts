import type { Transport } from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import type { Catalog } from "@quiver/core";
import { type CatalogMcpServerOptions, createServerOver } from "./create-mcp-server.js";
import type { ExtraMcpTool } from "./extra-tools.js";
import { serverInstructions } from "./internal/server-instructions.js";
import { reserveStdout } from "./reserve-stdout.js";

/** Options of `serveStdio`: the server's options plus an optional transport. */
export interface ServeStdioOptions extends Omit<CatalogMcpServerOptions, "extraTools"> {
  /** A transport other than the process's stdin/stdout (a `StdioServerTransport` over other streams). */
  readonly transport?: Transport;
  /** Called with out-of-band errors (a broken pipe, an unparsable line). */
  readonly onError?: (error: Error) => void;
  /** Tools served beside the catalog's (see `CatalogMcpServerOptions.extraTools`), or a promise of them. */
  readonly extraTools?: ReadonlyArray<ExtraMcpTool> | PromiseLike<ReadonlyArray<ExtraMcpTool>>;
}

/** A running stdio server. */
export interface StdioServer {
  /** Ends the connection and closes the transport (the catalog stays open: close it yourself). */
  close(): Promise<void>;
}

/**
 * Serves a catalog over MCP on the process's stdin and stdout: one connection, one session, every
 * call made as `options.principal`. Both protocol eras are answered (a 2025-11-25 `initialize`
 * handshake and the 2026-07-28 `server/discover` opening). Standard output carries the MCP stream
 * alone: while the server runs, whatever else writes to `process.stdout` (a plugin's `console.log`)
 * goes to standard error (see `reserveStdout`; with your own `transport`, reserve it yourself).
 *
 * The catalog (and `extraTools`) may be a promise: a host still loading its plugins starts reading
 * at once and answers the client's opening when they are in, with the server's instructions and
 * each plugin's paragraph (the `instructions` slot). A promise that rejects answers the opening,
 * then every request after it with its error; close the server then.
 *
 * Use it for `quiver serve --stdio` and for MCP clients that spawn the host as a command.
 *
 * @example
 * import fdaPlugin from "@quiver/plugin-fda";
 * const catalog = createCatalog();
 * catalog.register(fdaPlugin);
 * const stdio = serveStdio(catalog, { principal: process.env.USER ?? "local" });
 * process.on("SIGTERM", () => stdio.close().then(() => catalog.close()));
 */
export const serveStdio = (
  catalog: Catalog | PromiseLike<Catalog>,
  options: ServeStdioOptions = {},
): StdioServer => {
  const { transport, onError, extraTools, ...serverOptions } = options;
  const ready = Promise.all([catalog, extraTools ?? []]).then(([c, extra]) => ({
    catalog: c,
    extraTools: extra,
  }));
  // The server's requests see a rejection; the caller learns of it from its own promise.
  ready.catch(() => {});
  const stdout = transport ? undefined : reserveStdout();
  // The opening exchange waits for the catalog: its answer carries the plugins' instructions (a
  // client's first tools/list waits for the catalog anyway). A catalog that fails to load still gets
  // a server, which answers the requests after the opening with its error.
  const server = async () => {
    const served = await ready.catch(() => undefined);
    const instructions = served
      ? serverInstructions(serverOptions.instructions, served.catalog, serverOptions.aliasSets)
      : serverOptions.instructions;
    return createServerOver(ready, { ...serverOptions, instructions });
  };
  const handle = sdkServeStdio(server, {
    transport: transport ?? new StdioServerTransport(process.stdin, stdout?.channel),
    ...(onError ? { onerror: onError } : {}),
  });
  return {
    close: async () => {
      await handle.close();
      stdout?.release();
    },
  };
};
