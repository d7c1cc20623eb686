// Which plugins get a bundled MCP server (packages/servers/<plugin>) and what each server is made
// from: the plugin's package, its default export and the settings it declares (`pluginSettings`).
// Everything generated for a server (package.json, entry, README, server.json, manifest.json) reads
// this, so nothing of it is kept by hand (issue 40).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The plugin folders (packages/plugins/<id>) served one per package. */
export const SERVED_PLUGINS = [
  "alphafold",
  "context7",
  "fda",
  "perplexity",
  "testgen",
  "rag",
  "private-repo",
  "guia",
];

/**
 * Folders of a plugin's package that its served code reads beside its module (so the bundle, which
 * carries code only, needs them too): copied into the server package (and its .mcpb) by the
 * generator, with the note its README gives. guia serves the two real UGR guides of its demo/ folder
 * as seed guides, so the one-liner answers with no setting at all, as the plugin does in a host.
 */
export const SHIPPED_FOLDERS = {
  guia: {
    folder: "demo",
    note: "The package carries the plugin's two seed guides (two real UGR teaching guides, `demo/`, see its SOURCE.md), so `npx -y @quiver/guia-mcp` answers with no setting, as the plugin does in a host. Your own guides: `GUIA_DIR` (a folder of JSON/YAML guides, yours win on the same subject) or `MONGODB_URI` (a MongoDB collection); `GUIA_SEED=false` leaves the shipped ones out. Why not a required folder: the plugin needs none (its seed guides are its default), and a required setting would make the first start fail for a user who only wants to try it; the plugin reads no guides from a URL.",
  },
};

/**
 * The setting the server itself reads (not its plugin): the principal of every call, as the host's
 * `QUIVER_PRINCIPAL`, required by the servers of plugins that answer per caller (private-repo refuses
 * a call with no principal). A one-plugin server has no tokens to map, so the person it runs for is
 * this setting; the kit stops without it as it does for a missing plugin setting.
 */
export const PRINCIPAL_SETTING = {
  field: "principal",
  env: "QUIVER_PRINCIPAL",
  required: true,
  secret: false,
  description:
    "Who every call is made as (the server runs for one person): the scientist whose collections, and those shared with them, are searched.",
};
/** The served plugins whose tools need a principal. */
const NEEDS_PRINCIPAL = new Set(["private-repo"]);

/**
 * What a server's README says of the data its plugin reads (no folder to ship: the user points the
 * settings at it).
 */
export const DATA_NOTES = {
  rag: "The embedded index is a SQLite file (`RAG_INDEX_PATH`, default `.quiver/rag-index.db` in the folder the client starts the server in: give an absolute path in a client's config) opened with Node's built-in `node:sqlite` (no native addon, so the bundle carries it), or a PostgreSQL database (`DATABASE_URL`, the pure-JavaScript `pg` driver, bundled). Build the index with the host's command: `npx -y -p @quiver/host -p @quiver/plugin-rag quiver rag index <folder>` (with the same `RAG_INDEX_PATH`); or set `RAG_SERVICE_URL` to search an HTTP RAG service instead.",
  "private-repo":
    "The repository is a folder (`QUIVER_PRIVATE_REPO`, default `.quiver/private-repo` in the folder the client starts the server in: give an absolute path in a client's config) of SQLite files opened with Node's built-in `node:sqlite` (no native addon, so the bundle carries it), or a PostgreSQL database (`DATABASE_URL`, the pure-JavaScript `pg` driver, bundled). Add documents with the host's command: `npx -y -p @quiver/host -p @quiver/plugin-private-repo quiver private-repo add <files…> --owner <principal> --collection <name>` (with the same `QUIVER_PRIVATE_REPO`, and your `QUIVER_PRINCIPAL` as the owner). Every call is made as `QUIVER_PRINCIPAL` (required: the server runs for one person; a host maps its tokens to principals instead).",
};

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
    settings: [
      ...pluginSettings(plugin).filter((s) => s.env !== undefined),
      ...(NEEDS_PRINCIPAL.has(id) ? [PRINCIPAL_SETTING] : []),
    ],
    shipped: SHIPPED_FOLDERS[id],
    dataNote: SHIPPED_FOLDERS[id]?.note ?? DATA_NOTES[id],
  };
};

/** Every served plugin, loaded. */
export const loadServedPlugins = () => Promise.all(SERVED_PLUGINS.map(loadServedPlugin));
