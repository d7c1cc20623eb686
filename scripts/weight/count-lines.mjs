#!/usr/bin/env node
// `pnpm weight:lines [--base <git-ref>] [--json] [--no-scaffold]`: non-comment, non-blank lines of
// TypeScript source per plugin, core, core + plugins and the other packages (issue 36, item 2), with
// `--base` beside the same count at a git ref (read from git, no checkout) and the change in %; and the
// lines of a plugin scaffolded by `pnpm create-plugin`.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatLines, measureLines } from "./lines/measure-lines.mjs";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const USAGE = `Usage: pnpm weight:lines [--base <git-ref>] [--json] [--no-scaffold]

Non-comment, non-blank lines of TypeScript in each package's src (tests and test helpers left out).
  --base <ref>    the same count at a git ref beside it (read from git, no checkout), with the change
  --json          the measurement as JSON
  --no-scaffold   skip counting a plugin scaffolded by pnpm create-plugin`;

const main = () => {
  const { values } = parseArgs({
    options: {
      help: { type: "boolean", short: "h" },
      base: { type: "string" },
      json: { type: "boolean" },
      "no-scaffold": { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const measured = measureLines(REPO, { base: values.base, scaffold: !values["no-scaffold"] });
  console.log(values.json ? JSON.stringify(measured, null, 2) : formatLines(measured).join("\n"));
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    // A mistyped option: say which, and how to call it, without a stack trace.
    if (!String(error?.code).startsWith("ERR_PARSE_ARGS")) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  }
}
