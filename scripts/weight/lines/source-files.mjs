// The TypeScript source the line count reads: every `<package>/src/**` file of the workspace's
// packages (packages/*, packages/plugins/*, apps/*) but tests and test helpers, from the working tree
// or from a git ref (through `git ls-tree` and `git cat-file`, no checkout).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** `<package dir>/src/<rest>` of a counted file, or undefined: the package dir is its key. */
const SOURCE = /^((?:packages\/plugins|packages|apps)\/[^/]+)\/src\/(.+)$/;
const EXCLUDED = /\.(test|test-d|test-helpers)\.[cm]?tsx?$|\.d\.[cm]?ts$/;

/** The package folder of a counted source path (repository-relative), or undefined if not counted. */
export const countedPackage = (path) => {
  const m = SOURCE.exec(path);
  if (!m || m[1] === "packages/plugins") return undefined;
  if (!/\.[cm]?tsx?$/.test(m[2]) || EXCLUDED.test(m[2])) return undefined;
  if (m[2].split("/").some((part) => part === "__snapshots__" || part === "node_modules")) return undefined;
  return m[1];
};

/** Every counted source of the working tree under `repo`: `Map<path, text>`. */
export const workingTreeSources = (repo) => {
  const out = new Map();
  for (const base of ["packages", "packages/plugins", "apps"]) {
    if (!existsSync(join(repo, base))) continue;
    for (const name of readdirSync(join(repo, base))) {
      const src = join(repo, base, name, "src");
      if (!existsSync(src)) continue;
      for (const rel of readdirSync(src, { recursive: true })) {
        const path = `${base}/${name}/src/${rel}`;
        if (countedPackage(path)) out.set(path, readFileSync(join(repo, path), "utf8"));
      }
    }
  }
  return out;
};

/** Every counted source at git `ref`: `Map<path, text>`, read in one `git cat-file --batch`. */
export const refSources = (repo, ref) => {
  const git = (args, input) =>
    execFileSync("git", args, { cwd: repo, input, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
  const paths = git(["ls-tree", "-r", "--name-only", ref, "--", "packages", "apps"])
    .toString("utf8")
    .split("\n")
    .filter((p) => p && countedPackage(p));
  const out = new Map();
  if (paths.length === 0) return out;
  const batch = git(["cat-file", "--batch"], paths.map((p) => `${ref}:${p}\n`).join(""));
  let at = 0;
  for (const path of paths) {
    const eol = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, eol).toString("utf8").split(" ")[2]);
    out.set(path, batch.subarray(eol + 1, eol + 1 + size).toString("utf8"));
    at = eol + 1 + size + 1;
  }
  return out;
};
