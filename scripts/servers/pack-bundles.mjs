#!/usr/bin/env node
// Packs each built server into an MCP Bundle (.mcpb) with the official CLI (@anthropic-ai/mcpb):
// the generated manifest.json, the bundle in dist/ (it has no dependencies, so no node_modules),
// README.md, LICENSE and a folder the served code reads (guia's seed guides). Claude Desktop
// installs the file from a double-click and asks for the settings its manifest's user_config declares.
//
// Usage: node scripts/servers/pack-bundles.mjs [outdir]   (default .artifacts/mcpb; build first)
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { root, SERVED_PLUGINS } from "./served-plugins.mjs";

const run = promisify(execFile);
const mcpb = join(root, "node_modules", ".bin", "mcpb");
/** What a bundle carries from the server's folder: the manifest and what the npm package carries. */
const contentsOf = (dir, pkg) =>
  ["manifest.json", ...pkg.files].filter((f) => f !== "CHANGELOG.md" && existsSync(join(dir, f)));

/**
 * Packs the server in `dir` into `outDir`; resolves with the .mcpb's path and size in bytes.
 * `mcpb pack` validates the manifest first and fails on a refused one.
 */
export const packBundle = async (dir, outDir) => {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const bin = Object.keys(pkg.bin)[0];
  if (!existsSync(join(dir, "dist", "main.js")))
    throw new Error(`${pkg.name} is not built (no dist/main.js)`);
  const stage = mkdtempSync(join(tmpdir(), `quiver-mcpb-${bin}-`));
  try {
    for (const f of contentsOf(dir, pkg)) cpSync(join(dir, f), join(stage, f), { recursive: true });
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `${bin}-${pkg.version}.mcpb`);
    await run(mcpb, ["pack", stage, file], { maxBuffer: 16 * 1024 * 1024 });
    return { name: pkg.name, file, bytes: statSync(file).size };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = resolve(process.argv[2] ?? join(root, ".artifacts", "mcpb"));
  for (const id of SERVED_PLUGINS) {
    const { name, file, bytes } = await packBundle(join(root, "packages", "servers", id), outDir);
    console.log(`pack-bundles: ${name} -> ${file} (${(bytes / 1024 / 1024).toFixed(2)} MB)`);
  }
}
