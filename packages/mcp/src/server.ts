// `@quiver/mcp/server`: serving a catalog over MCP only (Streamable HTTP, stdio, bearer tokens), without
// the bridge and its MCP SDK client. A host that only serves imports this entry and never loads the
// client SDK (about 1.7 MB of JavaScript); the package root exports all of it as well.
import pkg from "../package.json" with { type: "json" };

export { availableAliasSets, type OfferedAliasSet, unknownAliasSets } from "./alias-sets.js";
export { createOAuthGate, type OAuthGate, type OAuthGateOptions } from "./auth/create-oauth-gate.js";
export type { IntrospectionOptions, OidcOptions, TokenIdentity } from "./auth/oauth-options.js";
export { requiredScopes, type ToolScopes } from "./auth/tool-scopes.js";
export { type BearerVerdict, bearerAuth, tokenPrincipals } from "./bearer-auth.js";

export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
} from "./create-mcp-http-handler.js";
export { type CatalogMcpServerOptions, createMcpServer } from "./create-mcp-server.js";
export {
  type ExtraMcpTool,
  type ExtraToolCallContext,
  type ExtraToolResult,
  usesAllowed,
} from "./extra-tools.js";
export { TOOL_DIGEST_META_KEY } from "./internal/tool-digest.js";
export { readView, viewUriOf } from "./internal/views.js";
export { type ReservedStdout, reserveStdout } from "./reserve-stdout.js";
export { type ServeStdioOptions, type StdioServer, serveStdio } from "./serve-stdio.js";
export { type EnvelopeCallResult, type TextContentMode, toCallToolResult } from "./to-call-tool-result.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
