#!/usr/bin/env node
// Interim main job until the host lands: registers every built first-party plugin and prints the catalog.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createCatalog } from "@quiver/core";

const catalog = createCatalog();
const dir = "packages/plugins";
for (const id of existsSync(dir) ? readdirSync(dir) : []) {
  const entry = join(dir, id, "dist", "index.js");
  if (!existsSync(entry)) continue;
  const mod = await import(pathToFileURL(entry).href);
  catalog.register(mod.default);
}
const tools = catalog.list();
console.log(`Quiver catalog: ${catalog.plugins().length} plugins, ${tools.length} tools`);
for (const t of tools)
  console.log(`  ${t.name.padEnd(28)} ${t.plugin.padEnd(14)} ${t.description.split(". ")[0]}`);
await catalog.close();
