import type { PluginInfo } from "@quiver/core";

/** How the host reports a plugin: ready, unconfigured (a setting is missing), or failing. */
export type PluginState = "ready" | "unconfigured" | "failing";

/**
 * A registered plugin's state and the line that explains it: failing while its last setup failed
 * (a database down, a bad connection string; the next call tries again), else the catalog's status.
 *
 * @example
 * const { state, message } = pluginState(catalog.plugins()[0]!)
 */
export const pluginState = (p: PluginInfo): { state: PluginState; message?: string } => {
  if (p.setupError !== undefined) return { state: "failing", message: `setup failed: ${p.setupError}` };
  return p.message ? { state: p.status, message: p.message } : { state: p.status };
};
