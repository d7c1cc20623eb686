#!/usr/bin/env node
// The `quiver` command. Exit codes: 0 done, 1 failed, 2 usage or config error.
import { useCompileCache } from "./cli/compile-cache.js";

// Before the rest of the CLI is imported: every module loaded from here on goes through the compile cache.
useCompileCache(process.argv.slice(2));
const { exitOnClosedPipe } = await import("./cli/closed-pipe.js");
exitOnClosedPipe();
const { runCli } = await import("./cli/run-cli.js");
const { COMMANDS } = await import("./commands/index.js");
process.exitCode = await runCli(process.argv.slice(2), COMMANDS);
