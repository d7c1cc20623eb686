// What @quiver/mcp's examples take as given (see scripts/examples/check-examples.mjs).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/server";
import type { Catalog } from "@quiver/core";
import type { McpBridgePluginOptions } from "@quiver/mcp";

export * as http from "node:http";
export { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
export { createContext7Plugin } from "@quiver/plugin-context7";
/** A catalog with plugins registered (`createCatalog()`). */
export declare const catalog: Catalog;
/** A request of the HTTP server the example runs in: Node's, and the Fetch API's. */
export declare const req: IncomingMessage;
export declare const request: Request;
/** The rest of the HTTP server: its other routes. */
export declare const api: (req: IncomingMessage, res: ServerResponse) => void;
/** The tools a session may see, and the scopes it lacks for one. */
export declare const tools: ReadonlySet<string>;
export declare const missingScopes: (tool: string) => readonly string[];
/** A bridged server's tools saved by an earlier `loadMcpBridgePlugin`, and a server's script. */
export declare const saved: McpBridgePluginOptions["tools"];
export declare const serverPath: string;
/** An MCP server of the SDK's (`new Server(...)`) the example registers handlers on. */
export declare const server: Server;
