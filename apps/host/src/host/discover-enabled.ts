import type { HostSettings, PluginSettings } from "../config/host-settings.js";
import { discoverPlugins } from "../discovery/discover-plugins.js";
import { type CoreCopy, hostCoreCopy, hostInstallRoot } from "../discovery/host-install.js";
import type { LoadedPlugin, PluginProblem } from "../discovery/types.js";

/** The plugins discovery found and the config leaves on, what was skipped and what was turned off. */
export interface EnabledPlugins {
  readonly enabled: ReadonlyArray<LoadedPlugin>;
  readonly problems: ReadonlyArray<PluginProblem>;
  /** Plugin ids or package names turned off in the config or with --disable. */
  readonly disabled: ReadonlyArray<string>;
}

/** A plugin's settings from the config file and flags, by id and by package name (id wins). */
export const settingsFor = (settings: HostSettings, loaded: LoadedPlugin): PluginSettings | undefined => {
  const byId = settings.plugins.get(loaded.plugin.id);
  const byPackage = settings.plugins.get(loaded.candidate.package);
  if (!byId) return byPackage;
  if (!byPackage) return byId;
  return {
    enabled: byId.enabled ?? byPackage.enabled,
    fileOptions: { ...byPackage.fileOptions, ...byId.fileOptions },
    flagOptions: { ...byPackage.flagOptions, ...byId.flagOptions },
  };
};

/** Where the host is installed (scanned for plugins installed beside it) and its own core copy. */
const hostParts = (discover: boolean): { hostRoot?: string; hostCore?: CoreCopy } => {
  const hostRoot = discover ? hostInstallRoot() : undefined;
  const hostCore = hostCoreCopy();
  return { ...(hostRoot ? { hostRoot } : {}), ...(hostCore ? { hostCore } : {}) };
};

/**
 * Discovers the project's plugins and applies the config: disabled ones are left out (and listed),
 * and config entries that match no installed plugin become problems.
 *
 * @example
 * const { enabled } = await discoverEnabled(settings)
 * enabled.flatMap((p) => p.plugin.commands ?? [])
 */
export const discoverEnabled = async (settings: HostSettings): Promise<EnabledPlugins> => {
  const disabled: string[] = [];
  const discovery = await discoverPlugins({
    cwd: settings.cwd,
    projects: settings.projects,
    dependencies: settings.discover,
    load: settings.load,
    ...hostParts(settings.discover),
    skip: (pkg) => {
      if (settings.plugins.get(pkg)?.enabled !== false) return false;
      disabled.push(pkg);
      return true;
    },
  });
  const enabled = discovery.plugins.filter((p) => {
    if (settingsFor(settings, p)?.enabled === false) {
      disabled.push(p.plugin.id);
      return false;
    }
    return true;
  });
  // Config entries that match no plugin: a typo, or a package that is not installed.
  const problems: PluginProblem[] = [...discovery.problems];
  const known = new Set(discovery.plugins.flatMap((p) => [p.plugin.id, p.candidate.package]));
  for (const key of settings.plugins.keys()) {
    if (known.has(key) || disabled.includes(key)) continue;
    problems.push({
      package: key,
      kind: "not_installed",
      message: `the config names plugin "${key}", but no installed plugin has that id or package name.`,
      fix: `Install it (e.g. pnpm add @quiver/plugin-${key}) or remove "${key}" from "plugins" in the config file.`,
    });
  }
  return { enabled, problems, disabled };
};
