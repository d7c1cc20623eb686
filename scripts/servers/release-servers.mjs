#!/usr/bin/env node
// After `changeset publish`, what a release does for the bundled servers it published: packs each
// one's .mcpb with the official CLI (@anthropic-ai/mcpb, pack-bundles.mjs) and attaches it to the
// server's GitHub release (`gh release upload`, the tag changesets created: `<name>@<version>`); and
// publishes each one's server.json to the MCP Registry with its publisher CLI, `mcp-publisher`,
// which is not on the npm registry (a Go binary from github.com/modelcontextprotocol/registry's
// releases; the workflow downloads it), logged in beforehand (`mcp-publisher login github-oidc`).
//
// Usage: node scripts/servers/release-servers.mjs bundles  '<publishedPackages JSON>' [outdir]
//        node scripts/servers/release-servers.mjs registry '<publishedPackages JSON>' <mcp-publisher>
// (publishedPackages is changesets/action's output: [{ "name": "@quiver/fda-mcp", "version": "0.2.0" }, ...])
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packBundle } from "./pack-bundles.mjs";
import { root, SERVED_PLUGINS } from "./served-plugins.mjs";

/** The published servers among `published`, with their folders. */
export const publishedServers = (published) => {
  const byName = new Map(
    SERVED_PLUGINS.map((id) => {
      const dir = join(root, "packages", "servers", id);
      return [JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name, dir];
    }),
  );
  return published.filter((p) => byName.has(p.name)).map((p) => ({ ...p, dir: byName.get(p.name) }));
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [mode, json = "[]", arg] = process.argv.slice(2);
  const servers = publishedServers(JSON.parse(json));
  if (servers.length === 0) console.log("release-servers: no bundled server was published");
  for (const server of servers) {
    if (mode === "bundles") {
      const { file, bytes } = await packBundle(server.dir, resolve(arg ?? join(root, ".artifacts", "mcpb")));
      const tag = `${server.name}@${server.version}`;
      execFileSync("gh", ["release", "upload", tag, file, "--clobber"], { stdio: "inherit" });
      console.log(`release-servers: ${file} (${(bytes / 1024 / 1024).toFixed(2)} MB) attached to ${tag}`);
    } else if (mode === "registry") {
      if (!arg) throw new Error("registry: give the path of the mcp-publisher binary");
      execFileSync(resolve(arg), ["publish"], { cwd: server.dir, stdio: "inherit" });
      console.log(`release-servers: ${server.name}@${server.version} published to the MCP Registry`);
    } else throw new Error(`unknown mode "${mode}" (bundles or registry)`);
  }
}
