import type { McpServerSettings } from "../config/host-settings.js";
import type { LoadedPlugin, PluginProblem } from "../discovery/types.js";

/** The plugin id of an `mcpServers` entry: its name in lower case, other characters as "-". */
export const mcpServerPluginId = (name: string): string =>
  `mcp-${name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}`;

/**
 * Connects to every server of the config file's `mcpServers` section (in parallel), lists its
 * tools and returns each as a bridged plugin whose tools are named `<name>_<tool>`. A server that
 * cannot be started or reached is a problem naming it; the others load. The MCP client SDK is
 * imported only when the section has entries.
 */
export const loadMcpServers = async (
  servers: Readonly<Record<string, McpServerSettings>>,
): Promise<{ readonly plugins: LoadedPlugin[]; readonly problems: PluginProblem[] }> => {
  const entries = Object.entries(servers);
  if (entries.length === 0) return { plugins: [], problems: [] };
  const { loadMcpBridgePlugin } = await import("@quiver/mcp");
  const results = await Promise.all(
    entries.map(async ([name, server]): Promise<LoadedPlugin | PluginProblem> => {
      const label = `mcpServers.${name}`;
      try {
        const plugin = await loadMcpBridgePlugin({
          id: mcpServerPluginId(name),
          toolPrefix: `${name}_`,
          description: `Tools of the MCP server "${name}" (config file: mcpServers.${name}), bridged into Quiver.`,
          ...server,
        });
        return {
          candidate: {
            package: label,
            version: plugin.version,
            dir: undefined,
            entry: server.command ?? server.url ?? "",
            coreRange: undefined,
            source: "config",
          },
          plugin,
          module: {},
        };
      } catch (error) {
        return {
          package: label,
          kind: "import_failed",
          message: `the MCP server "${name}" could not be bridged: ${(error as Error).message}`,
          fix: `Check mcpServers.${name} in the config file (command, args and env, or url and headers).`,
        };
      }
    }),
  );
  return {
    plugins: results.filter((r): r is LoadedPlugin => "plugin" in r),
    problems: results.filter((r): r is PluginProblem => !("plugin" in r)),
  };
};
