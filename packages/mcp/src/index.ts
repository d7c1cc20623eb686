export {
  connectMcpToolCaller,
  type McpToolCaller,
  type McpToolCallerOptions,
  type McpToolCallResult,
  type McpToolContentBlock,
} from "./connect-mcp-tool-caller.js";
export {
  createMcpBridgePlugin,
  loadMcpBridgePlugin,
  type McpBridgeOptions,
  type McpBridgePluginOptions,
  type McpRemoteTool,
} from "./mcp-bridge-plugin.js";
export type { McpTarget } from "./mcp-target.js";
export * from "./server.js";
