import { resolve } from "node:path";
import { findDependencyCandidates, findNamedCandidate } from "./find-candidates.js";
import type { CoreCopy } from "./host-install.js";
import { loadPlugin } from "./load-plugin.js";
import type { DiscoveryResult, LoadedPlugin, PluginCandidate, PluginProblem } from "./types.js";

/** Options of `discoverPlugins`. */
export interface DiscoverOptions {
  /** The folder package names in `load` are looked up from. */
  readonly cwd: string;
  /** Project folders whose package.json dependencies are scanned (default: `cwd`). */
  readonly projects?: ReadonlyArray<string>;
  /** Scan the project's dependencies (default true). */
  readonly dependencies?: boolean;
  /** Extra packages (looked up from `cwd`) or absolute paths to load. */
  readonly load?: ReadonlyArray<string>;
  /** Package names to leave out without importing them (disabled in the config). */
  readonly skip?: (packageName: string) => boolean;
  /** The host's @quiver/core version (default: the one this host runs). */
  readonly coreVersion?: string;
  /**
   * The folder the host itself is installed into (`hostInstallRoot()`): its dependencies are scanned
   * too, and package names in `load` not found from `cwd` are looked up there, so
   * `npx -p @quiver/host -p @quiver/plugin-fda quiver serve` serves the plugin installed beside it.
   */
  readonly hostRoot?: string;
  /** The host's own @quiver/core copy: a plugin that imports another copy is refused. */
  readonly hostCore?: CoreCopy;
}

/**
 * Finds and loads the plugins of a project at run time: the dependencies whose package.json
 * declares `"quiver": { "plugin": ... }` plus the packages or paths named in the config. Each is
 * imported lazily (only now, in parallel), checked for shape and @quiver/core compatibility;
 * broken ones become problems and the rest load. Two packages with the same plugin id: the first wins.
 *
 * @example
 * const { plugins, problems } = await discoverPlugins({ cwd: process.cwd() })
 * for (const p of plugins) catalog.register(p.plugin)
 */
export const discoverPlugins = async (options: DiscoverOptions): Promise<DiscoveryResult> => {
  const candidates: PluginCandidate[] = [];
  const problems: PluginProblem[] = [];
  let scanned = 0;
  if (options.dependencies !== false) {
    const projects = [...(options.projects ?? [options.cwd])];
    if (options.hostRoot && !projects.some((p) => resolve(p) === resolve(options.hostRoot!)))
      projects.push(options.hostRoot);
    for (const project of projects) {
      const deps = findDependencyCandidates(project);
      candidates.push(...deps.candidates);
      problems.push(...deps.problems);
      scanned += deps.scanned;
    }
  }
  for (const spec of options.load ?? []) {
    scanned++;
    const found = findNamedCandidate(spec, options.cwd, options.hostRoot);
    if (!found) continue;
    if ("candidate" in found) candidates.push(found.candidate);
    else problems.push(found.problem);
  }
  // The same module found twice (a dependency also named in the config) loads once.
  const seen = new Set<string>();
  const unique = candidates.filter((c) => {
    if (seen.has(c.entry)) return false;
    seen.add(c.entry);
    return !options.skip?.(c.package);
  });
  const loaded = await Promise.all(unique.map((c) => loadPlugin(c, options.coreVersion, options.hostCore)));
  const plugins: LoadedPlugin[] = [];
  const byId = new Map<string, LoadedPlugin>();
  for (const r of loaded) {
    if ("problem" in r) {
      problems.push(r.problem);
      continue;
    }
    const first = byId.get(r.plugin.plugin.id);
    if (first) {
      problems.push({
        package: r.plugin.candidate.package,
        kind: "duplicate",
        message: `it defines plugin id "${r.plugin.plugin.id}", already loaded from ${first.candidate.package}.`,
        fix: `Remove one of ${first.candidate.package} and ${r.plugin.candidate.package}.`,
      });
      continue;
    }
    byId.set(r.plugin.plugin.id, r.plugin);
    plugins.push(r.plugin);
  }
  return { plugins, problems, scanned };
};
