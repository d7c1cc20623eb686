import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { PluginCandidate, PluginProblem } from "./types.js";

interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly main?: string;
  readonly exports?: unknown;
  readonly quiver?: { readonly plugin?: unknown };
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

const parseJson = (text: string | undefined): PackageJson | undefined => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as PackageJson;
  } catch {
    return undefined;
  }
};

const readJson = (path: string): PackageJson | undefined => parseJson(readText(path));

/** Finds `node_modules/<name>` from `from` upwards, as Node's resolution does (the path as found). */
const findPackageLink = (name: string, from: string): string | undefined => {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
};

/** Finds `node_modules/<name>` from `from` upwards, as Node's resolution does; its real path. */
export const findPackageDir = (name: string, from: string): string | undefined => {
  const link = findPackageLink(name, from);
  return link === undefined ? undefined : realpathSync(link);
};

const coreRangeOf = (pkg: PackageJson) =>
  pkg.peerDependencies?.["@quiver/core"] ?? pkg.dependencies?.["@quiver/core"];

/** The main module of a package without a `quiver.plugin` field (`exports["."]` or `main`). */
const mainEntry = (dir: string, pkg: PackageJson): string | undefined => {
  const pick = (e: unknown): string | undefined => {
    if (typeof e === "string") return e;
    if (e && typeof e === "object") {
      const o = e as Record<string, unknown>;
      if ("." in o) return pick(o["."]);
      return pick(o.import ?? o.default ?? o.node);
    }
    return undefined;
  };
  const rel = pick(pkg.exports) ?? pkg.main ?? "index.js";
  return resolve(dir, rel);
};

type Found = { candidate: PluginCandidate } | { problem: PluginProblem } | undefined;

/**
 * Reads a package folder: a candidate when it declares `"quiver": { "plugin": ... }` (or, when
 * `required`, its main module), a problem when the declared entry is missing, undefined otherwise.
 */
export const candidateFromDir = (
  dir: string,
  source: PluginCandidate["source"],
  required: boolean,
  label?: string,
): Found => {
  const text = readText(join(dir, "package.json"));
  // Most dependencies are not plugins, and some manifests are large (effect's lists thousands of
  // exports): one without the key is passed over unparsed.
  if (!required && !text?.includes('"quiver"')) return undefined;
  const pkg = parseJson(text);
  const name = label ?? pkg?.name ?? dir;
  if (!pkg) {
    return required
      ? {
          problem: {
            package: name,
            kind: "not_found",
            message: `${dir} has no readable package.json.`,
            fix: "Point the config at a package folder or a module file.",
          },
        }
      : undefined;
  }
  const declared = pkg.quiver?.plugin;
  if (declared === undefined && !required) return undefined;
  if (declared !== undefined && typeof declared !== "string") {
    return {
      problem: {
        package: name,
        kind: "invalid_shape",
        message: `its package.json "quiver.plugin" must be a path string, got ${JSON.stringify(declared)}.`,
        fix: `Set "quiver": { "plugin": "./dist/index.js" } in ${name}'s package.json.`,
      },
    };
  }
  // Only a plugin's folder is resolved to its real path (pnpm links every dependency): the one Node loads.
  const real = realpathSync(dir);
  const entry = declared !== undefined ? resolve(real, declared) : mainEntry(real, pkg);
  if (!entry || !existsSync(entry)) {
    return {
      problem: {
        package: name,
        kind: "no_entry",
        message: `it declares the plugin module ${declared ?? "(main)"}, but ${entry} does not exist.`,
        fix:
          source === "dependency"
            ? `Build ${name} (its dist/ is missing) or reinstall it.`
            : `Build ${name} or fix the path in the config file.`,
      },
    };
  }
  return {
    candidate: {
      package: pkg.name ?? name,
      version: pkg.version,
      dir: real,
      entry,
      coreRange: coreRangeOf(pkg),
      source,
    },
  };
};

/**
 * The plugin packages among a project's dependencies and devDependencies: those whose package.json
 * declares `"quiver": { "plugin": "./dist/index.js" }`. Dependencies that are not installed are
 * ignored (there is nothing to load); ones that declare a missing entry are reported.
 *
 * @example
 * const { candidates, problems } = findDependencyCandidates(process.cwd())
 */
export const findDependencyCandidates = (
  cwd: string,
): { candidates: PluginCandidate[]; problems: PluginProblem[]; scanned: number } => {
  const project = readJson(join(cwd, "package.json"));
  const names = new Set([
    ...Object.keys(project?.dependencies ?? {}),
    ...Object.keys(project?.devDependencies ?? {}),
    ...Object.keys(project?.optionalDependencies ?? {}),
  ]);
  const candidates: PluginCandidate[] = [];
  const problems: PluginProblem[] = [];
  for (const name of names) {
    const dir = findPackageLink(name, cwd);
    if (!dir) continue;
    const found = candidateFromDir(dir, "dependency", false);
    if (!found) continue;
    if ("candidate" in found) candidates.push(found.candidate);
    else problems.push(found.problem);
  }
  return { candidates, problems, scanned: names.size };
};

/**
 * A plugin named in the config file or with `--plugin`: a package name (looked up from `cwd`), a
 * package folder, or a module file.
 *
 * @example
 * findNamedCandidate("quiver-plugin-foo", process.cwd())
 * findNamedCandidate("/srv/plugins/my-plugin.js", process.cwd())
 */
export const findNamedCandidate = (spec: string, cwd: string, hostRoot?: string): Found => {
  const isPath = spec.startsWith("/") || spec.startsWith(".");
  if (isPath) {
    const path = resolve(cwd, spec);
    if (!existsSync(path)) {
      return {
        problem: {
          package: spec,
          kind: "not_found",
          message: `${path} does not exist.`,
          fix: 'Fix the path under "load" in the config file (relative paths are read from the file\'s folder).',
        },
      };
    }
    if (statSync(path).isDirectory()) return candidateFromDir(realpathSync(path), "config", true, spec);
    return {
      candidate: {
        package: spec,
        version: undefined,
        dir: undefined,
        entry: realpathSync(path),
        coreRange: undefined,
        source: "config",
      },
    };
  }
  const dir = findPackageDir(spec, cwd) ?? (hostRoot ? findPackageDir(spec, hostRoot) : undefined);
  if (!dir) {
    const where =
      hostRoot && resolve(hostRoot) !== resolve(cwd) ? `${cwd} or beside the host in ${hostRoot}` : cwd;
    return {
      problem: {
        package: spec,
        kind: "not_found",
        message: `the package ${spec} (named with --plugin or under "load" in the config) is not installed in ${where}.`,
        fix: `Install it (npm install ${spec}, or with npx: npx -y -p @quiver/host -p ${spec} quiver …), or remove it from --plugin / "load".`,
      },
    };
  }
  return candidateFromDir(dir, "config", true, spec);
};
