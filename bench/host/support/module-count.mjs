// Preload (`node --import <this> …`) that counts the modules a process loads, by package, and writes
// `{ total, byPackage }` as JSON to the file in QUIVER_BENCH_MODULES when the process exits. The cold-start
// benchmark runs `quiver list` with it once, to show what start-up loads beside how long it takes.
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";

const byPackage = new Map();
let total = 0;

/** "effect", "@modelcontextprotocol/server", "packages/core" (a workspace folder) or "node:". */
const packageOf = (url) => {
  if (url.startsWith("node:")) return "node:";
  const dep = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (dep) return dep[1];
  const own = /\/((?:apps|packages|packages\/plugins|bench)\/[^/]+)\//.exec(url);
  return own ? own[1] : "other";
};

registerHooks({
  load(url, context, next) {
    const result = next(url, context);
    if (!url.startsWith("node:") && !url.endsWith(".json")) {
      total++;
      const p = packageOf(url);
      byPackage.set(p, (byPackage.get(p) ?? 0) + 1);
    }
    return result;
  },
});

process.on("exit", () => {
  const sorted = Object.fromEntries([...byPackage].sort((a, b) => b[1] - a[1]));
  writeFileSync(process.env.QUIVER_BENCH_MODULES, JSON.stringify({ total, byPackage: sorted }));
});
