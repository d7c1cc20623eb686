#!/usr/bin/env node
// `pnpm weight:call`: the first-party source files one warm `fda_search_drugs` call runs code in
// (issue 36, item 1), measured with V8's precise coverage in `quiver serve` and mapped back through
// the bundles' source maps. Needs a build (`pnpm build`). `--json` prints the measurement as JSON;
// `--warmups <n>` makes n calls before the measured one (default 1).
//
// Why over the inspector's WebSocket rather than `node:inspector` in-process: the measured process is
// the real `quiver serve` CLI, started as users start it, with no measuring code of ours inside it.
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatReport } from "./call-files/format-report.mjs";
import { measureCallFiles } from "./call-files/measure-call-files.mjs";

const main = async () => {
  const { values } = parseArgs({
    options: { json: { type: "boolean" }, warmups: { type: "string", default: "1" } },
  });
  const measured = await measureCallFiles({ warmups: Number(values.warmups) });
  console.log(values.json ? JSON.stringify(measured, null, 2) : formatReport(measured).join("\n"));
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
