// The two registry documents of a server, from the settings its plugin declares:
//   - server.json for the MCP Registry (schema 2025-12-11, kept beside this file with its source):
//     one npm package run with npx over stdio, its environment variables with isRequired/isSecret;
//   - manifest.json of the .mcpb bundle (manifest_version 0.3): `user_config` from the same
//     settings (secrets `sensitive`), passed to the server as its environment variables.
import { NODE_RANGE, REPOSITORY_URL } from "./served-plugins.mjs";
import { SERVER_JSON_DIGESTS_KEY } from "./tool-digests.mjs";

export const SERVER_SCHEMA_URL =
  "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
/** A default the registry and the bundle can state: strings, numbers and booleans only. */
const plainDefault = (value) => ["string", "number", "boolean"].includes(typeof value);
const describe = (setting) => setting.description ?? `The ${setting.field} setting.`;

/**
 * server.json for the MCP Registry; `digests` (tool name to digest, as the built server lists them)
 * go in the publisher-provided metadata, the baseline for the AI SDK's detectToolDrift.
 */
export const renderServerJson = (server, version, digests) =>
  json({
    $schema: SERVER_SCHEMA_URL,
    name: server.mcpName,
    title: `Quiver ${server.id}`,
    description: server.plugin.description,
    version,
    repository: { url: REPOSITORY_URL, source: "github", subfolder: server.relDir },
    websiteUrl: `${REPOSITORY_URL}/tree/main/${server.relDir}#readme`,
    packages: [
      {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: server.name,
        version,
        runtimeHint: "npx",
        transport: { type: "stdio" },
        environmentVariables: server.settings.map((s) => ({
          name: s.env,
          description: describe(s),
          isRequired: s.required,
          isSecret: s.secret,
          ...(plainDefault(s.default) ? { default: String(s.default) } : {}),
          ...(typeof s.default === "number" ? { format: "number" } : {}),
          ...(typeof s.default === "boolean" ? { format: "boolean" } : {}),
        })),
      },
    ],
    ...(digests
      ? {
          _meta: {
            "io.modelcontextprotocol.registry/publisher-provided": { [SERVER_JSON_DIGESTS_KEY]: digests },
          },
        }
      : {}),
  });

/** "apiKey" -> "API key", "baseUrl" -> "Base URL": a setting's title in Claude Desktop's form. */
const title = (field) => {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ");
  const upper = new Set(["api", "url", "uri", "llm", "id", "db"]);
  const text = words.map((w) => (upper.has(w) ? w.toUpperCase() : w)).join(" ");
  return text[0].toUpperCase() + text.slice(1);
};

/** The .mcpb manifest (manifest_version 0.3): the bundle runs `node dist/main.js` from its folder. */
export const renderMcpbManifest = (server, version) =>
  json({
    manifest_version: "0.3",
    name: server.bin,
    display_name: `Quiver ${server.id}`,
    version,
    description: server.plugin.description,
    author: { name: "Quiver contributors", url: REPOSITORY_URL },
    repository: { type: "git", url: REPOSITORY_URL },
    homepage: `${REPOSITORY_URL}/tree/main/${server.relDir}#readme`,
    license: "MIT",
    keywords: ["quiver", server.id],
    server: {
      type: "node",
      entry_point: "dist/main.js",
      mcp_config: {
        command: "node",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the .mcpb placeholder, not a template
        args: ["${__dirname}/dist/main.js"],
        // An optional setting left empty arrives as "", which core reads as unset.
        env: Object.fromEntries(server.settings.map((s) => [s.env, `\${user_config.${s.field}}`])),
      },
    },
    user_config: Object.fromEntries(
      server.settings.map((s) => [
        s.field,
        {
          type:
            typeof s.default === "number" ? "number" : typeof s.default === "boolean" ? "boolean" : "string",
          title: title(s.field),
          description: `${describe(s)} (${s.env})`,
          required: s.required,
          ...(s.secret ? { sensitive: true } : {}),
          ...(plainDefault(s.default) ? { default: s.default } : {}),
        },
      ]),
    ),
    compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: NODE_RANGE } },
  });
