#!/usr/bin/env node
// Runs every package's tests in one vitest run and ends with one plain line:
// "N passed, N failed, N skipped", totalled over every package (read by CI).
// Extra arguments go to vitest (a path filter, --project NAME ...).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

// A folder argument (`./dev test packages/plugins`) runs every package below it: vitest's own filter
// matches file names, not folders above a project, so a folder becomes one --project per package.
const PACKAGE_GLOBS = ["packages", "packages/plugins", "apps", "examples"];
const packages = PACKAGE_GLOBS.flatMap((base) =>
  existsSync(base)
    ? readdirSync(base)
        .map((d) => join(base, d))
        .filter((d) => existsSync(join(d, "vitest.config.ts")) && existsSync(join(d, "package.json")))
    : [],
);
const inside = (dir, folder) => {
  const r = relative(resolve(folder), resolve(dir));
  return r === "" || (!r.startsWith("..") && !r.startsWith("/"));
};
const args = process.argv.slice(2).flatMap((arg) => {
  if (arg.startsWith("-") || !existsSync(arg) || !statSync(arg).isDirectory()) return [arg];
  const below = packages.filter((d) => inside(d, arg));
  if (below.length === 0) return [arg];
  return below.flatMap((d) => ["--project", JSON.parse(readFileSync(join(d, "package.json"), "utf8")).name]);
});

mkdirSync(".reports", { recursive: true });
const out = ".reports/vitest.json";
const run = spawnSync(
  "pnpm",
  ["exec", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...args],
  {
    stdio: "inherit",
    env: { ...process.env, FORCE_COLOR: process.env.CI ? "0" : (process.env.FORCE_COLOR ?? "1") },
  },
);
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, "utf8"));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === "failed" && f.assertionResults.length === 0,
  );
  failed += Math.max(brokenFiles.length - (report.numRuntimeErrorTestSuites ?? 0), 0);
} else {
  failed = 1;
}
const code = run.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code);
