// `./dev bench weight`: the first-party source files one warm `fda_search_drugs` call runs code in
// (scripts/weight/count-call-files.mjs, `pnpm weight:call`), against issue 36's targets.
import { overLimit } from "../../scripts/weight/call-files/format-report.mjs";
import { MAX_LINES, measureCallFiles } from "../../scripts/weight/call-files/measure-call-files.mjs";
import { table } from "../lib/measure.mjs";
import { countTarget } from "./support/count-target.mjs";

const OUTSIDE = 21;
const HOST_SIDE = 6;
const CORE = 15;

/** Serves fda, covers one warm call and prints the files by group and package, with the targets. */
export const run = async () => {
  const m = await measureCallFiles();
  const longest = [...m.files].sort((a, b) => b.lines - a.lines).slice(0, 3);
  const over = overLimit(m.files);
  return {
    title: `Weight: source files one warm ${m.tool} call runs (cache miss, runtime loaded, HTTP API)`,
    table: table(
      Object.entries(m.byPackage)
        .sort((a, b) => b[1] - a[1])
        .map(([name, files]) => ({ package: name, files })),
      ["package", "files"],
    ),
    notes: [
      `${m.files.length} files: ${m.byGroup.outsidePlugin} outside the plugin (host + mcp ${m.byGroup["host+mcp"]}, core ${m.byGroup.core}, others ${m.byGroup.other}), the plugin's own ${m.byGroup.plugin}`,
      `longest on the path: ${longest.map((f) => `${f.file} (${f.lines})`).join(", ")}`,
      "every file and the functions that ran in it: pnpm weight:call",
    ],
    targets: [
      countTarget(`call files outside the plugin ≤ ${OUTSIDE}`, m.byGroup.outsidePlugin, { max: OUTSIDE }),
      countTarget(`call files in host + mcp ≤ ${HOST_SIDE}`, m.byGroup["host+mcp"], { max: HOST_SIDE }),
      countTarget(`call files in core ≤ ${CORE}`, m.byGroup.core, { max: CORE }),
      countTarget(`call files over ${MAX_LINES} lines = 0`, over.length, { max: 0 }),
    ],
  };
};
