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

const USAGE = `Usage: pnpm weight:call [--json] [--warmups <n>]

The first-party source files one warm fda_search_drugs call (cache miss, runtime loaded) runs code in,
measured with V8's precise coverage in \`quiver serve\` and mapped back through the source maps.
Needs a build (pnpm build).
  --json          the measurement as JSON
  --warmups <n>   calls made before the measured one (default 1)`;

const main = async () => {
  const { values } = parseArgs({
    options: {
      help: { type: "boolean", short: "h" },
      json: { type: "boolean" },
      warmups: { type: "string", default: "1" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const measured = await measureCallFiles({ warmups: Number(values.warmups) });
  console.log(values.json ? JSON.stringify(measured, null, 2) : formatReport(measured).join("\n"));
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    // A mistyped option: say which, and how to call it, without a stack trace.
    if (!String(error?.code).startsWith("ERR_PARSE_ARGS")) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  }
}
