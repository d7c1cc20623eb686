#!/usr/bin/env node
// `pnpm test:live`: runs every plugin's test/live.test.ts against the real upstreams, one test per
// endpoint, each only when its key or switch is set (the tests themselves decide, as in `./dev test`,
// where the same files skip without one). Prints one table row per test (plugin, endpoint, status,
// ms) and one line per skipped plugin with its reason. Exit code 0 when nothing failed, including when
// everything was skipped. Extra arguments go to vitest (e.g. a plugin's folder name as a filter).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const PLUGINS = "packages/plugins";
const files = readdirSync(PLUGINS)
  .map((id) => join(PLUGINS, id, "test", "live.test.ts"))
  .filter((f) => existsSync(f));

mkdirSync(".reports", { recursive: true });
const report = ".reports/live.json";
rmSync(report, { force: true });
const run = spawnSync(
  "pnpm",
  [
    "exec",
    "vitest",
    "run",
    "--reporter=./scripts/test-live-reporter.mjs",
    ...files,
    ...process.argv.slice(2),
  ],
  { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, QUIVER_LIVE_REPORT: report } },
);
if (!existsSync(report)) {
  console.error(`test:live: vitest wrote no report (exit code ${run.status ?? run.signal})`);
  process.exit(run.status || 1);
}

const { modules, unhandled } = JSON.parse(readFileSync(report, "utf8"));
const pluginOf = (file) => relative(PLUGINS, file).split(/[\\/]/)[0];
const rows = [];
const skipped = [];
let failed = unhandled.length;
for (const m of [...modules].sort((a, b) => a.file.localeCompare(b.file))) {
  const plugin = pluginOf(m.file);
  const ran = m.tests.filter((t) => t.state !== "skipped");
  for (const e of m.errors) rows.push({ plugin, endpoint: "(test file)", status: "failed", ms: "", note: e });
  failed += m.errors.length;
  if (ran.length === 0 && m.errors.length === 0) {
    skipped.push(`${plugin}: ${m.said[0]?.replace(/^skipped:\s*/, "") ?? "skipped (no key or switch set)"}`);
    continue;
  }
  for (const t of m.tests) {
    if (t.state === "failed") failed++;
    rows.push({ plugin, endpoint: t.name, status: t.state, ms: String(t.ms), note: t.error ?? "" });
  }
}

const table = (list) => {
  const cols = ["plugin", "endpoint", "status", "ms"];
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...list.map((r) => r[c].length))]));
  const line = (r) =>
    cols.map((c) => (c === "ms" ? r[c].padStart(width[c]) : r[c].padEnd(width[c]))).join("  ");
  console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
  console.log(cols.map((c) => "-".repeat(width[c])).join("  "));
  for (const r of list) {
    console.log(line(r));
    if (r.status === "failed" && r.note) console.log(`    ${r.note}`);
  }
};

console.log("");
if (rows.length > 0) table(rows);
else console.log("No live test ran.");
for (const s of skipped) console.log(`skipped ${s}`);
for (const e of unhandled) console.log(`unhandled error: ${e}`);
const passed = rows.filter((r) => r.status === "passed").length;
console.log(`${passed} passed, ${failed} failed, ${skipped.length} plugins skipped`);
process.exit(failed > 0 ? 1 : 0);
