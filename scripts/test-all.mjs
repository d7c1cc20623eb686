#!/usr/bin/env node
// Runs every package's tests in one vitest run and ends with one plain line:
// "N passed, N failed, N skipped", totalled over every package (read by CI).
// Extra arguments go to vitest (a path filter, --project NAME ...).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";

mkdirSync(".reports", { recursive: true });
const out = ".reports/vitest.json";
const run = spawnSync(
  "pnpm",
  [
    "exec",
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
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
