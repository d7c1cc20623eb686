export { type BearerVerdict, bearerAuth, tokenPrincipals } from "./bearer-auth.js";
export {
  connectMcpToolCaller,
  type McpToolCaller,
  type McpToolCallerOptions,
  type McpToolCallResult,
  type McpToolContentBlock,
} from "./connect-mcp-tool-caller.js";
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
} from "./create-mcp-http-handler.js";
export { type CatalogMcpServerOptions, createMcpServer } from "./create-mcp-server.js";
export {
  createMcpBridgePlugin,
  loadMcpBridgePlugin,
  type McpBridgeOptions,
  type McpBridgePluginOptions,
  type McpRemoteTool,
} from "./mcp-bridge-plugin.js";
export { type ServeStdioOptions, type StdioServer, serveStdio } from "./serve-stdio.js";
export { type EnvelopeCallResult, type TextContentMode, toCallToolResult } from "./to-call-tool-result.js";
export { VERSION } from "./version.js";
