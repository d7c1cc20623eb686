#!/usr/bin/env node
// Lone-clone check: tests, sources and demos must read no data from outside the repository, so a fresh
// clone with nothing beside it runs them all. Greps every code file under a src/, test/, tests/, demo/
// or examples/ folder (and every *.test.* / *.spec.* file) for reads of the shared data folder:
// `../shared`, `shared/data` (also as join(..., "shared", "data")), findSharedData, sharedDataDir,
// sharedDataPath, QUIVER_SHARED_DATA, and absolute /work/ paths. Comment lines are not reads.
//
// Allow-list: bench/ is not checked (benchmarks may read the large shared copy, when present). A line
// that must stay (the deprecated helper itself) carries the comment `lone-clone: allow <why>` on it or on
// the line above; a file that is the exception as a whole (the deprecated helper) carries
// `lone-clone: allow-file <why>` in its first five lines.
//
// Usage: node scripts/check-lone-clone.mjs [root]   (default: the working directory). Exits 1 and lists
// the offenders as path:line, or prints how many files it checked and exits 0. No dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const root = resolve(process.argv[2] ?? process.cwd());
const SKIP_DIRS = new Set(["node_modules", "dist", "bench", "coverage", "fixtures-large"]);
const CODE = /\.(?:[cm]?[jt]sx?)$/;
const CHECKED_DIRS = new Set(["src", "test", "tests", "__tests__", "demo", "examples"]);
const SELF = resolve(import.meta.dirname, "check-lone-clone.mjs");
const PATTERNS = [
  [/\.\.\/shared\b/, "../shared"],
  [/shared\/data\b/, "shared/data"],
  [/["'`]shared["'`]\s*,\s*["'`]data["'`]/, 'join(..., "shared", "data")'],
  [/\bfindSharedData\b/, "findSharedData"],
  [/\bsharedData(?:Dir|Path)\b/, "sharedDataDir/sharedDataPath"],
  [/\bQUIVER_SHARED_DATA\b/, "QUIVER_SHARED_DATA"],
  [/["'`]\/work\//, "an absolute /work/ path"],
];
const ALLOW = /lone-clone: allow\b/;
const ALLOW_FILE = /lone-clone: allow-file\b/;
const COMMENT = /^\s*(?:\/\/|\/\*|\*)/;

/** Every code file to check under `dir` (relative parts in `parts`). */
const walk = (dir, parts = []) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : walk(path, [...parts, entry.name]);
    if (!CODE.test(entry.name) || path === SELF) return [];
    const inChecked =
      parts.some((p) => CHECKED_DIRS.has(p)) || /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(entry.name);
    return inChecked ? [path] : [];
  });

if (!existsSync(root) || !statSync(root).isDirectory()) {
  console.error(
    `check-lone-clone: ${root} is not a folder (usage: node scripts/check-lone-clone.mjs [repository root])`,
  );
  process.exit(2);
}
const files = walk(root);
const offenders = [];
for (const file of files) {
  const lines = readFileSync(file, "utf8").split("\n");
  if (lines.slice(0, 5).some((l) => ALLOW_FILE.test(l))) continue;
  lines.forEach((line, i) => {
    if (COMMENT.test(line) || ALLOW.test(line) || ALLOW.test(lines[i - 1] ?? "")) return;
    for (const [pattern, what] of PATTERNS) {
      if (pattern.test(line)) {
        offenders.push(
          `${relative(root, file).split(sep).join("/")}:${i + 1}: reads ${what}: ${line.trim()}`,
        );
        break;
      }
    }
  });
}

if (offenders.length > 0) {
  console.error(
    `lone clone: ${offenders.length} read(s) of data outside the repository (copy the data into a fixtures/ folder with a SOURCE.md; only bench/ may read shared/data):`,
  );
  for (const o of offenders) console.error(`  ${o}`);
  process.exit(1);
}
console.log(`lone clone: ${files.length} files checked, none reads data outside the repository`);
