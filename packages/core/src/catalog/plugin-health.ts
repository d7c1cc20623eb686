import type { HealthReport } from "../define-plugin.js";
import type { HttpClient } from "../http/index.js";
import type { PluginEntry } from "./registry.js";

/** Runs a plugin's health check, or reports its configuration state; never rejects. */
export const pluginHealth = async (
  entry: PluginEntry | undefined,
  pluginId: string,
  http: HttpClient,
  signal?: AbortSignal,
): Promise<HealthReport> => {
  if (!entry) return { ok: false, message: `No plugin "${pluginId}" is registered.` };
  if (entry.info.status === "unconfigured")
    return {
      ok: false,
      message: entry.info.message ?? "Not configured.",
      fix: `Set ${entry.info.missing.join(", ")}.`,
    };
  if (!entry.plugin.health && !entry.plugin.setup)
    return { ok: true, message: "Loaded (no health check declared)." };
  const started = performance.now();
  try {
    const resources = await entry.resources.open();
    if (!entry.plugin.health) return { ok: true, message: "Set up (no health check declared)." };
    const report = await entry.plugin.health({
      config: entry.config,
      resources,
      http,
      signal: signal ?? AbortSignal.timeout(10_000),
    });
    return { latencyMs: Math.round(performance.now() - started), ...report };
  } catch (error) {
    return {
      ok: false,
      message: `Health check failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
};

/** A plugin's settings and opened resources, for a plugin command; rejects with what to fix. */
export const openPlugin = async (entry: PluginEntry | undefined, pluginId: string) => {
  if (!entry) throw new Error(`No plugin "${pluginId}" is registered.`);
  if (entry.info.status === "unconfigured") throw new Error(entry.info.message ?? "Not configured.");
  return { config: entry.config, resources: await entry.resources.open() };
};
