import { CASSETTE_OPTIONS, type CommandSpec } from "../cli/command.js";

/** `quiver serve`: the HTTP API and MCP Streamable HTTP on one port, or MCP over stdio. */
export const serveCommand: CommandSpec = {
  name: "serve",
  summary: "Serve the tools: HTTP JSON API + MCP Streamable HTTP (/mcp) + web console (/), or MCP over stdio",
  usage:
    "serve [--port <n>] [--host <addr>] [--stdio] [--profile <name>] [--alias-set <name>] [--record <dir> | --replay <dir> | --replay-or-record <dir>]",
  description:
    "HTTP mode (default 127.0.0.1:7333): GET /tools, GET /tools/:name, POST /tools/:name/call,\nGET /health, GET /metrics, MCP at /mcp, and the web console at / (open it in a browser).\n--stdio: MCP over stdin/stdout (logs on stderr).\nSIGTERM/SIGINT: stop accepting, let calls in flight finish (server.shutdownTimeout, default 10s),\ncancel the rest, exit 0. A second signal cancels at once. SIGHUP: discover plugins again\n(installed or removed since start; MCP clients get tools/list_changed).\n--record <dir>: every tool call's upstream exchanges go to <dir>/<tool>/<hash of input>.json\n(no keys, no principal). --replay <dir>: calls are answered from those files with no network; a\ncall without one is unavailable, naming the file. --replay-or-record <dir>: replay, record the gaps.\n--profile code-agent|chatbot|co-scientist: also serve that system's tools under its own names, answering\nits own shapes (HTTP body and MCP structured content): code-agent search_documentation, search_web;\nchatbot rag_search, get_guia, generate_test (asignatura from X-Quiver-Session-Values); co-scientist\nPOST /external-tools/execute, GET /external-tools and the MCP tool execute_external_tool.\n--alias-set <name>: MCP lists the set's tools under their alias names and parameters (a prompt written for\nthe server they come from works unchanged), e.g. --alias-set context7-mcp for resolve-library-id and query-docs.",
  options: {
    port: {
      type: "string",
      short: "p",
      value: "<n>",
      description: "Port (env QUIVER_PORT, default 7333; 0 picks a free one)",
    },
    host: {
      type: "string",
      value: "<addr>",
      description: "Bind address (env QUIVER_HOST, default 127.0.0.1)",
    },
    stdio: { type: "boolean", description: "Serve MCP over stdin/stdout instead of HTTP" },
    profile: {
      type: "string",
      value: "<name>",
      description:
        "Also serve a seed system's tools under its own names and shapes: code-agent, chatbot or co-scientist (config: profile)",
    },
    "alias-set": {
      type: "string",
      multiple: true,
      value: "<name>",
      description:
        "Serve a plugin's alias set over MCP: its tools and parameters under another server's names, e.g. context7-mcp (repeatable; config: aliasSets)",
    },
    "max-sessions-per-principal": {
      type: "string",
      value: "<n>",
      description:
        "MCP sessions per principal (with tokens; none without); more evicts its oldest idle (default 100)",
    },
    "session-idle-timeout": {
      type: "string",
      value: "<duration>",
      description: 'Close an MCP session idle this long (default "30 minutes")',
    },
    ...CASSETTE_OPTIONS,
  },
  examples: [
    "quiver serve",
    "QUIVER_PORT=8080 quiver serve --demo",
    "quiver serve --stdio   # in an MCP client's config",
    "quiver serve --profile chatbot   # the course chatbot's rag_search, get_guia, generate_test",
    "quiver serve --stdio --alias-set context7-mcp   # resolve-library-id, query-docs as the official server names them",
    "quiver serve --record cassettes        # once, with real keys; commit cassettes/",
    "quiver serve --replay cassettes        # in CI: no network, no keys",
  ],
  // The implementation (and what it imports) loads only when the command runs, not for help or other commands.
  run: async (ctx) => (await import("./serve-run.js")).runServe(ctx),
};
