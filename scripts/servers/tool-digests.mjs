// The tool digests a release publishes in each server.json: read from the built server itself, as
// an MCP client would (its tools/list, each tool's `_meta`), so the baseline is what the released
// bundle serves and not a second computation that could drift from it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
// The key @quiver/mcp's tool listing writes, from its build (the one definition): this module, and
// the generator with it, runs after @quiver/mcp is built (version-packages builds it first).
import { TOOL_DIGEST_META_KEY } from "@quiver/mcp/server";
/** Where server.json keeps the digests, under the registry's publisher-provided metadata. */
export const SERVER_JSON_DIGESTS_KEY = "io.github.quiver-tools/tool-digests";

/**
 * The digest of each tool the built server in `server.dir` lists, by tool name (sorted); undefined
 * when the server is not built. Required settings get a placeholder: listing calls no upstream.
 *
 * @example
 * await listedToolDigests(await loadServedPlugin("fda")) // { fda_count_drugs: "…", fda_search_drugs: "…" }
 */
export const listedToolDigests = async (server) => {
  const main = join(server.dir, "dist", "main.js");
  if (!existsSync(main)) return undefined;
  const env = { PATH: process.env.PATH ?? "" };
  for (const s of server.settings) if (s.required) env[s.env] = "placeholder";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main],
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "quiver-generate-servers", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const digests = tools.map((t) => [t.name, t._meta?.[TOOL_DIGEST_META_KEY]]);
    const missing = digests.filter(([, d]) => typeof d !== "string").map(([n]) => n);
    if (missing.length > 0)
      throw new Error(`${server.name}: no digest in tools/list _meta for ${missing.join(", ")} (rebuild it)`);
    return Object.fromEntries(digests.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  } finally {
    await client.close();
  }
};
