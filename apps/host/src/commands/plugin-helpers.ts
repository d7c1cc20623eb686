import { UsageError } from "../cli/usage-error.js";
import type { Host, HostPlugin } from "../host/create-host.js";

/**
 * The loaded plugin with this id, or a usage error saying how to install it.
 *
 * @example
 * const guia = requirePlugin(host, "guia", "@quiver/plugin-guia")
 */
export const requirePlugin = (host: Host, id: string, pkg: string): HostPlugin => {
  const found = host.plugins.find((p) => p.info.id === id);
  if (found) return found;
  const problem = host.problems.find((p) => p.package === pkg);
  if (problem)
    throw new Error(`${pkg} is installed but could not be loaded: ${problem.message} Fix: ${problem.fix}`);
  if (host.disabled.includes(id) || host.disabled.includes(pkg)) {
    throw new UsageError(`The ${id} plugin is disabled in the config; enable it to use this command.`);
  }
  throw new UsageError(
    `This command needs the ${id} plugin, which is not installed here.`,
    `Install it: pnpm add ${pkg}`,
  );
};

/**
 * A function the plugin's package exports (e.g. `importGuides`), or an error naming what is missing.
 *
 * @example
 * const importGuides = requireExport<typeof import("@quiver/plugin-guia").importGuides>(guia, "importGuides")
 */
export const requireExport = <F>(plugin: HostPlugin, ...names: string[]): F => {
  for (const name of names) {
    const f = plugin.loaded.module[name];
    if (typeof f === "function") return f as F;
  }
  const pkg = plugin.loaded.candidate.package;
  throw new Error(
    `${pkg}@${plugin.loaded.candidate.version ?? "?"} does not export ${names.join(" or ")}, which this command needs: upgrade ${pkg}.`,
  );
};

/**
 * The plugin's validated settings as its tools see them (options, then environment), or an error
 * that names what is missing.
 *
 * @example
 * const config = await pluginConfig<GuiaConfig>(host, guia)
 */
export const pluginConfig = async <C>(
  host: Host,
  plugin: HostPlugin,
  overrides: Record<string, unknown> = {},
): Promise<C> => {
  const { resolvePluginConfig } = await import("@quiver/core");
  const resolved = resolvePluginConfig(
    plugin.loaded.plugin,
    { ...plugin.options, ...overrides },
    host.settings.env,
  );
  if (!resolved.ok)
    throw new UsageError(
      resolved.message,
      resolved.missing.length ? `Set ${resolved.missing.join(", ")}.` : undefined,
    );
  return resolved.config as C;
};
