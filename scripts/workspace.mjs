// The workspace's packages and the rules for ranges between them (VERSIONING.md), shared by
// check-artifacts, version-packages and the release test so they cannot disagree.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Workspace package folders from pnpm-workspace.yaml's `packages` globs (one `*` level). */
export const workspaceDirs = () => {
  const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const globs = [...yaml.matchAll(/^\s+-\s+["']?([^"'\n]+)["']?$/gm)]
    .map((m) => m[1])
    .filter((g) => !g.includes(" "));
  const dirs = [];
  for (const g of globs) {
    if (!g.endsWith("/*")) {
      if (existsSync(join(root, g, "package.json"))) dirs.push(join(root, g));
      continue;
    }
    const base = join(root, g.slice(0, -2));
    if (!existsSync(base)) continue;
    for (const d of readdirSync(base))
      if (existsSync(join(base, d, "package.json"))) dirs.push(join(base, d));
  }
  return dirs;
};

/** Every workspace package: its folder and its manifest as it is on disk now. */
export const workspacePackages = () =>
  workspaceDirs().map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));

/** semver, from the host's dependencies (the root has no dependencies of its own to load it from). */
export const semver = createRequire(join(root, "apps/host/package.json"))("semver");

/**
 * Why an internal peer range is wrong for the version it points at, or undefined when it is right:
 * it must hold the current version and stop below the next major (never an unbounded `>=`).
 *
 * @example
 * peerRangeProblem(">=1.0.0", "1.0.0") // "is not bounded below the next major 2.0.0"
 */
export const peerRangeProblem = (range, version) => {
  if (!semver.validRange(range)) return "not a valid range";
  if (!semver.satisfies(version, range)) return `does not include the current version ${version}`;
  const nextMajor = `${semver.major(version) + 1}.0.0`;
  if (semver.satisfies(nextMajor, range)) return `is not bounded below the next major ${nextMajor}`;
  return undefined;
};

/**
 * The semver range a manifest's entry stands for, as pnpm packs it: `workspace:^` is `^<version>`,
 * `workspace:*` the exact version, `workspace:<range>` that range.
 *
 * @example
 * effectiveRange("workspace:^", "0.1.0") // "^0.1.0"
 */
export const effectiveRange = (spec, version) => {
  if (!spec.startsWith("workspace:")) return spec;
  const rest = spec.slice("workspace:".length);
  if (rest === "*") return version;
  if (rest === "^" || rest === "~") return `${rest}${version}`;
  return rest;
};
