// Groups first-party source files by the workspace package that holds them (the nearest
// package.json above each file) and by the groups: the plugin, host + mcp, core, others.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The packages of the host side of a call (the issue counts them together). */
export const HOST_SIDE = ["@quiver/host", "@quiver/mcp"];
/** Core's package name. */
export const CORE = "@quiver/core";

const names = new Map();
/** The name in the nearest package.json above `file`. */
export const packageOf = (file) => {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (names.has(dir)) return names.get(dir);
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name = JSON.parse(readFileSync(manifest, "utf8")).name ?? relative(process.cwd(), dir);
      names.set(dir, name);
      return name;
    }
  }
  return "(none)";
};

/** The group of a package: "plugin" (the measured tool's own), "host+mcp", "core" or "other". */
export const groupOf = (name, plugin) => {
  if (name === plugin) return "plugin";
  if (HOST_SIDE.includes(name)) return "host+mcp";
  if (name === CORE) return "core";
  return "other";
};

/** The number of lines of a file (as `wc -l` counts them, plus a last line without a newline). */
export const lineCount = (file) => {
  const text = readFileSync(file, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
};
