// Which plugins get a bundled MCP server (packages/servers/<plugin>) and what each server is made
// from: the plugin's package, its default export and the settings it declares (`pluginSettings`).
// Everything generated for a server (package.json, entry, README, server.json, manifest.json) reads
// this, so nothing of it is kept by hand (issue 40).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The plugin folders (packages/plugins/<id>) served one per package. Not yet: guia (its seed guides
 * are read from the package's demo/ folder beside its module, which the bundle does not carry), and
 * testgen, rag and private-repo, whose plugin descriptions (repeated as the registry entry's) are
 * 112, 117 and 104 characters where the MCP Registry takes at most 100.
 */
export const SERVED_PLUGINS = ["alphafold", "context7", "fda", "perplexity"];

/** The MCP Registry namespace: `io.github.<owner>` is proven by the publisher's GitHub login. */
export const REGISTRY_NAMESPACE = "io.github.quiver-tools";
/** The repository every package names (from @quiver/core's manifest, the same for all). */
const corePkg = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8"));
export const REPOSITORY_URL = corePkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
/** The Node range Quiver needs (the root's `engines.node`): the servers' and the bundles' too. */
export const NODE_RANGE = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.node;

/**
 * One server to generate: its folder, npm name, command and registry name, and the plugin it serves
 * (loaded from the plugin's build, so the plugin must be built first).
 */
export const loadServedPlugin = async (id) => {
  const pluginDir = join(root, "packages", "plugins", id);
  const pluginPkg = JSON.parse(readFileSync(join(pluginDir, "package.json"), "utf8"));
  const { pluginSettings } = await import("@quiver/core");
  let plugin;
  try {
    plugin = (await import(pathToFileURL(join(pluginDir, pluginPkg.quiver.plugin)).href)).default;
  } catch (error) {
    throw new Error(
      `${pluginPkg.name} is not built (${error.message}): pnpm turbo run build --filter ${pluginPkg.name}`,
    );
  }
  return {
    id,
    dir: join(root, "packages", "servers", id),
    relDir: `packages/servers/${id}`,
    name: `@quiver/${id}-mcp`,
    bin: `quiver-${id}-mcp`,
    mcpName: `${REGISTRY_NAMESPACE}/${id}`,
    pluginPkg,
    plugin,
    settings: pluginSettings(plugin).filter((s) => s.env !== undefined),
  };
};

/** Every served plugin, loaded. */
export const loadServedPlugins = () => Promise.all(SERVED_PLUGINS.map(loadServedPlugin));
