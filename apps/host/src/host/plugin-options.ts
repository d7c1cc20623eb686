import { type AnyPlugin, pluginSettings } from "@quiver/core";
import type { PluginSettings } from "../config/host-settings.js";

/**
 * The options a plugin is registered with, so that flags > environment > config file > demo defaults:
 * the core lets registration options win over environment variables, so file and demo options for
 * a field whose variable is set are dropped, and `--set` options are laid on top.
 *
 * @example
 * pluginOptions(weather, settings.plugins.get("weather"), process.env, {}) // { baseUrl: "…" } unless WEATHER_BASE_URL is set
 */
export const pluginOptions = (
  plugin: AnyPlugin,
  settings: PluginSettings | undefined,
  env: Readonly<Record<string, string | undefined>>,
  demo: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> => {
  const fromEnv = new Set(
    pluginSettings(plugin)
      .filter((s) => s.env !== undefined && env[s.env] !== undefined && env[s.env] !== "")
      .map((s) => s.field),
  );
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...demo, ...settings?.fileOptions })) if (!fromEnv.has(k)) out[k] = v;
  return { ...out, ...settings?.flagOptions };
};
