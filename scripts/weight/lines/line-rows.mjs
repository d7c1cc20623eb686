// The rows of the line count: each plugin, the plugins together, core, core + plugins (+ testing),
// the other packages, from the code lines of each package folder.
import { countCodeLines } from "./count-code-lines.mjs";
import { countedPackage } from "./source-files.mjs";

const CORE = "packages/core";
const TESTING = "packages/testing";
const isPlugin = (dir) => dir.startsWith("packages/plugins/");

/** Code lines per package folder of a `Map<path, text>` of sources. */
export const linesByPackage = (sources) => {
  const out = new Map();
  for (const [path, text] of sources) {
    const dir = countedPackage(path);
    out.set(dir, (out.get(dir) ?? 0) + countCodeLines(text, path));
  }
  return out;
};

/**
 * The rows `{ label, lines }` for `byPackage` (from {@link linesByPackage}); `dirs` lists the package
 * folders to show (the union of both sides when comparing, so a removed package still counts).
 *
 * @example
 * lineRows(linesByPackage(workingTreeSources(repo)));
 */
export const lineRows = (byPackage, dirs = [...byPackage.keys()]) => {
  const of = (dir) => byPackage.get(dir) ?? 0;
  const sorted = [...new Set(dirs)].sort();
  const plugins = sorted.filter(isPlugin);
  const others = sorted.filter((d) => !isPlugin(d) && d !== CORE);
  const pluginLines = plugins.reduce((sum, d) => sum + of(d), 0);
  return [
    ...plugins.map((d) => ({ label: d.slice("packages/plugins/".length), lines: of(d) })),
    { label: `plugins (${plugins.length})`, lines: pluginLines, key: "plugins" },
    { label: "core", lines: of(CORE), key: "core" },
    { label: "core + plugins", lines: of(CORE) + pluginLines, key: "core+plugins" },
    // Code moved from a plugin into the testing package is no saving either: this row shows it.
    {
      label: "core + plugins + testing",
      lines: of(CORE) + pluginLines + of(TESTING),
      key: "core+plugins+testing",
    },
    ...others.map((d) => ({ label: d.replace(/^(packages|apps)\//, ""), lines: of(d) })),
    { label: "all packages", lines: sorted.reduce((sum, d) => sum + of(d), 0), key: "all" },
  ];
};
