import { enableCompileCache } from "node:module";
import { GLOBAL_OPTIONS } from "./command.js";

const TAKES_VALUE = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => o.type === "string")
    .map(([n]) => `--${n}`),
);

/** The first word of argv that is neither an option nor a global option's value ("list", "serve", a plugin id). */
export const commandWord = (argv: ReadonlyArray<string>): string | undefined => {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return undefined;
    if (!a.startsWith("-")) return a;
    if (TAKES_VALUE.has(a)) i++;
  }
  return undefined;
};

/**
 * Turns on Node's compile cache (V8 code of every module loaded afterwards is kept on disk, so a later
 * `quiver` starts markedly faster) for every command but the HTTP `serve`. Node holds the cache's data
 * in memory for the life of the process (measured by bench/host/idle-memory.mjs): a short command pays
 * that for a moment, a shared HTTP server for as long as it runs, to start sooner once. `serve --stdio`
 * turns it on: an MCP client launches it for one user's conversation and waits for its first
 * `tools/list` at every launch. `NODE_COMPILE_CACHE=<dir>` (read by Node itself) turns it on for `serve`
 * too; `NODE_DISABLE_COMPILE_CACHE=1` turns it off everywhere. Returns whether it asked for the cache.
 *
 * @example
 * useCompileCache(process.argv.slice(2)) // before importing the rest of the CLI
 */
export const useCompileCache = (argv: ReadonlyArray<string>): boolean => {
  if (commandWord(argv) === "serve" && !argv.includes("--stdio")) return false;
  // Node >= 22.1 (the bin already refuses anything older than 22.19).
  enableCompileCache();
  return true;
};
