/** The version of @quiver/mcp, reported as the MCP server's and client's implementation version. */
export const VERSION = "0.1.0";
