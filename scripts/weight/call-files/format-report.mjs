// The call-file count as text: the totals by group and by package, the files, the largest ones.
import { MAX_LINES } from "./measure-call-files.mjs";

/** How many of the largest files on the call's path the report names. */
const LARGEST = 5;

/** The files on the path longer than the line limit, longest first. */
export const overLimit = (files) =>
  files.filter((f) => f.lines > MAX_LINES).sort((a, b) => b.lines - a.lines);

/**
 * The report of a `measureCallFiles()` result, as lines of text.
 *
 * @example
 * console.log(formatReport(await measureCallFiles()).join("\n"));
 */
export const formatReport = ({ tool, files, byGroup, byPackage, unmapped }) => {
  const lines = [
    `One warm ${tool} call (cache miss, runtime loaded) over quiver serve's HTTP API ran code in ${files.length} first-party source files:`,
    `  outside the plugin: ${byGroup.outsidePlugin} (host + mcp ${byGroup["host+mcp"]}, core ${byGroup.core}, others ${byGroup.other})`,
    `  the plugin's own: ${byGroup.plugin}`,
    "",
    "By package:",
    ...Object.entries(byPackage)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `  ${String(n).padStart(3)}  ${name}`),
    "",
    "Files (lines, functions that ran):",
    ...files.map((f) => `  ${String(f.lines).padStart(4)}  ${f.file}  (${f.functions.join(", ")})`),
    "",
    `Largest files on the path (limit ${MAX_LINES} lines):`,
    ...[...files]
      .sort((a, b) => b.lines - a.lines)
      .slice(0, LARGEST)
      .map((f) => `  ${String(f.lines).padStart(4)}  ${f.file}${f.lines > MAX_LINES ? "  OVER" : ""}`),
    `  ${overLimit(files).length} file(s) over ${MAX_LINES} lines`,
  ];
  if (unmapped.length) {
    lines.push("", `${unmapped.length} function(s) ran in first-party bundles without a source mapping:`);
    lines.push(...unmapped.map((u) => `  ${u.file} @${u.start} ${u.name || "(anonymous)"}`));
  }
  return lines;
};
