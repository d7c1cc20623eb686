import { type AnyPlugin, pluginSettings } from "@quiver/core";
import type { ServerIdentity } from "./server-identity.js";

/** A setting's default as the help shows it: JSON for anything but a plain string. */
const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * The `--help` text of a one-plugin server: usage, then every setting the plugin declares with an
 * environment variable (required, secret, default, description), read from `pluginSettings`.
 *
 * @example
 * process.stdout.write(serverHelp(fdaPlugin, { name: "@quiver/fda-mcp", version: "0.1.0", bin: "quiver-fda-mcp" }))
 */
export const serverHelp = (plugin: AnyPlugin, server: ServerIdentity): string => {
  const settings = pluginSettings(plugin).filter((s) => s.env !== undefined);
  const lines = [
    `${server.bin} ${server.version}: the Quiver plugin "${plugin.id}" as an MCP server.`,
    ...(plugin.description ? [plugin.description] : []),
    "",
    "Usage:",
    `  npx -y ${server.name}                 MCP over stdio (what MCP clients launch)`,
    `  npx -y ${server.name} --port 3333     MCP over Streamable HTTP at http://127.0.0.1:3333/mcp`,
    "",
    "Options:",
    "  -p, --port <n>   serve Streamable HTTP on this port instead of stdio (0: any free port)",
    "  --host <addr>    the address to bind with --port (default 127.0.0.1)",
    "  -v, --version    print the version",
    "  -h, --help       print this help",
    "",
    "QUIVER_PRINCIPAL names who every call is made as (for plugins that answer per caller).",
    "",
  ];
  if (settings.length === 0) lines.push("Settings: none.");
  else {
    lines.push("Settings (environment variables):");
    for (const s of settings) {
      const tags = [s.required ? "required" : "optional", ...(s.secret ? ["secret"] : [])];
      if (s.default !== undefined) tags.push(`default ${shown(s.default)}`);
      lines.push(`  ${s.env}  (${tags.join(", ")})`);
      if (s.description) lines.push(`      ${s.description}`);
    }
  }
  return `${lines.join("\n")}\n`;
};
