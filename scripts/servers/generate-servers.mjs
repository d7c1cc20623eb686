#!/usr/bin/env node
// Writes every bundled MCP server package (packages/servers/<plugin>) from its plugin: package.json,
// src/main.ts, the build configs, README.md, LICENSE, server.json (MCP Registry) and manifest.json
// (.mcpb), all from one template and the plugin's declared settings, so none is kept by hand; and the
// last section of the plugin's own README ("Use in an MCP client", between markers), and the host
// README's list of the one-line servers (between markers).
// The version is the one changesets wrote in the package.json (0.0.0 for a new server); the tool
// digests in server.json are read from the built server's tools/list (tool-digests.mjs), so a new
// server is generated, built, then generated again.
//
// Usage: node scripts/servers/generate-servers.mjs [--check]
//   --check  writes nothing; exits 1 naming each file that is stale or missing, or each server.json
//            the registry would refuse (check:artifacts runs this). The plugins and servers must be built.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { serverJsonProblems } from "./check-server-json.mjs";
import { renderMcpbManifest, renderServerJson } from "./render-manifests.mjs";
import { renderMain, renderPackageJson, renderRolldownConfig, renderTsconfig } from "./render-package.mjs";
import { renderServerReadme, withClientSection, withServersList } from "./render-readme.mjs";
import { loadServedPlugins, root } from "./served-plugins.mjs";
import { listedToolDigests } from "./tool-digests.mjs";

/** Every file of one server package, by path inside its folder. */
export const serverFiles = (server, version, digests) =>
  new Map([
    ["package.json", renderPackageJson(server, version)],
    ["src/main.ts", renderMain(server)],
    ["rolldown.config.mjs", renderRolldownConfig()],
    ["tsconfig.json", renderTsconfig()],
    ["README.md", renderServerReadme(server)],
    ["LICENSE", readFileSync(join(root, "LICENSE"), "utf8")],
    ["server.json", renderServerJson(server, version, digests)],
    ["manifest.json", renderMcpbManifest(server, version)],
    ...shippedFiles(server),
  ]);

/** The files of the plugin's folder the served code reads beside its module (guia's seed guides), copied. */
const shippedFiles = (server) => {
  if (!server.shipped) return [];
  const from = join(root, "packages", "plugins", server.id, server.shipped.folder);
  return readdirSync(from, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort()
    .map((file) => [
      relative(join(root, "packages", "plugins", server.id), file),
      readFileSync(file, "utf8"),
    ]);
};

/** The version on disk (changesets owns it), 0.0.0 before the first. */
const versionOf = (dir) => {
  const file = join(dir, "package.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : "0.0.0";
};

/** Writes (or, with `check`, compares) every server package; returns the problems found. */
export const generateServers = async ({ check = false } = {}) => {
  const problems = [];
  const written = [];
  const servers = await loadServedPlugins();
  const hostReadme = join(root, "apps", "host", "README.md");
  const hostOutput = [hostReadme, withServersList(readFileSync(hostReadme, "utf8"), servers)];
  for (const [index, server] of servers.entries()) {
    const version = versionOf(server.dir);
    const digests = await listedToolDigests(server);
    if (!digests)
      problems.push(
        `${server.relDir} is not built, so its server.json has no tool digests: pnpm turbo run build --filter ${server.name}, then run this again`,
      );
    const files = serverFiles(server, version, digests);
    const pluginReadme = join(root, "packages", "plugins", server.id, "README.md");
    const outputs = [
      ...[...files].map(([path, content]) => [join(server.dir, path), content]),
      [pluginReadme, withClientSection(readFileSync(pluginReadme, "utf8"), server)],
      ...(index === 0 ? [hostOutput] : []),
    ];
    for (const [file, content] of outputs) {
      const now = existsSync(file) ? readFileSync(file, "utf8") : undefined;
      if (now === content) continue;
      if (check) problems.push(`${relative(root, file)} is ${now === undefined ? "missing" : "stale"}`);
      else {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
        written.push(relative(root, file));
      }
    }
    const doc = JSON.parse(files.get("server.json"));
    for (const p of serverJsonProblems(doc, JSON.parse(files.get("package.json"))))
      problems.push(`${server.relDir}/server.json: ${p}`);
  }
  return { problems, written };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes("--check");
  const { problems, written } = await generateServers({ check });
  for (const f of written) console.log(`generate-servers: wrote ${f}`);
  if (problems.length > 0) {
    console.error(
      `generate-servers: ${problems.length} problem(s)${check ? " (run node scripts/servers/generate-servers.mjs)" : ""}:\n  ${problems.join("\n  ")}`,
    );
    process.exit(1);
  }
  if (check) console.log("generate-servers: every server package is up to date");
}
