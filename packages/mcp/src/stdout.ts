// `@quiver/mcp/stdout`: keeping standard output for one stream (MCP over stdio, or a CLI's `--json`
// document), without the MCP SDK: a command that prints JSON imports this entry alone.
export { type ReservedStdout, reserveStdout } from "./reserve-stdout.js";
