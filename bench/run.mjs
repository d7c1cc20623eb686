#!/usr/bin/env node
// `pnpm bench`: runs every benchmark module (bench/<area>/<name>.mjs exporting `run()`) in sequence, in one
// process, and prints each title, table and notes side by side. Only files directly in bench/<area>/ are
// benchmarks (helpers and fixtures live in subfolders); files starting with "_" and modules without `run`
// are left out. Arguments filter by path: `pnpm bench host` runs bench/host/* only. A module may return
// `targets` ({ line, pass } from lib/measure.mjs `target`): they are printed with it and again at the end,
// as one pass/fail list of the run (the exit code stays 0 for a missed target: a shared machine is noisy).
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const SKIP_DIRS = new Set(["lib", "node_modules"]);

const modules = readdirSync(here)
  .filter((d) => !SKIP_DIRS.has(d) && !d.startsWith(".") && statSync(join(here, d)).isDirectory())
  .sort()
  .flatMap((d) =>
    readdirSync(join(here, d))
      .filter((f) => f.endsWith(".mjs") && !f.startsWith("_"))
      .sort()
      .map((f) => join(here, d, f)),
  )
  .filter((p) => filters.length === 0 || filters.some((f) => relative(here, p).includes(f)));

// The figures depend on the Node that runs them: on the machine's Node 20 instead of the project's
// Node 24 (what `./dev bench` and `pnpm bench` run), the runtime's rows measured 2–3× slower.
const major = Number(process.versions.node.split(".")[0]);
console.log(`Node ${process.version}, ${process.arch}`);
if (major < 22) {
  console.log(
    `- warning: Node ${process.version} is older than the project's Node (≥ 22.19); run \`./dev bench\` for comparable figures.`,
  );
}

const results = [];
const targets = [];
const started = performance.now();
for (const path of modules) {
  const name = relative(here, path);
  const mod = await import(pathToFileURL(path).href);
  if (typeof mod.run !== "function") continue;
  process.stderr.write(`running ${name} …\n`);
  const t = performance.now();
  try {
    const r = await mod.run();
    const seconds = ((performance.now() - t) / 1000).toFixed(1);
    results.push({ name, ok: true, seconds });
    console.log(`\n## ${r.title}  (${name}, ${seconds}s)\n`);
    console.log(r.table);
    if (r.notes?.length) console.log(`\n${r.notes.map((n) => `- ${n}`).join("\n")}`);
    if (r.targets?.length) {
      console.log(`\n${r.targets.map((t) => t.line).join("\n")}`);
      targets.push(...r.targets);
    }
    // A module that writes its targets as notes ("target: … PASS") is summarised too.
    for (const n of r.notes ?? [])
      if (/^target: .*\b(PASS|FAIL)\b/.test(n)) targets.push({ line: n, pass: /\bPASS\b/.test(n) });
  } catch (error) {
    results.push({ name, ok: false });
    console.log(
      `\n## ${name} FAILED\n\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}
const failed = results.filter((r) => !r.ok);
if (targets.length) {
  const missed = targets.filter((t) => !t.pass).length;
  console.log(
    `\n## Targets (${targets.length - missed} of ${targets.length} met)\n\n${targets.map((t) => t.line).join("\n")}`,
  );
}
console.log(
  `\n${results.length} benchmarks in ${((performance.now() - started) / 1000).toFixed(0)}s` +
    (failed.length ? `; failed: ${failed.map((r) => r.name).join(", ")}` : ""),
);
process.exitCode = failed.length ? 1 : 0;
