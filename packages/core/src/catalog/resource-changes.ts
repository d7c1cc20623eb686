import type { ResourceChange } from "../plugin-slots.js";
import type { PluginEntry, Registry } from "./registry.js";
import type { CatalogResourceChange, ResourceChangeListener } from "./slot-types.js";

/**
 * The catalog's resource changes: each ready plugin's `watchResources` runs while at least one
 * listener listens (started once its `setup` has opened, for plugins registered later too) and stops
 * when the last one leaves or the catalog closes. A listener that throws loses that change, never
 * the others'; a watcher that fails to start is left stopped (the plugin's resources still read).
 */
export const createResourceChanges = (registry: Registry) => {
  const listeners = new Set<ResourceChangeListener>();
  const watching = new Map<PluginEntry, Promise<(() => void) | undefined>>();

  const emit = (plugin: string, change: ResourceChange | undefined) => {
    const told: CatalogResourceChange = change?.uri === undefined ? { plugin } : { plugin, uri: change.uri };
    for (const listener of [...listeners])
      try {
        listener(told);
      } catch {}
  };
  const start = (entry: PluginEntry) => {
    const watch = entry.plugin.watchResources;
    if (!watch || entry.info.status !== "ready" || watching.has(entry)) return;
    const stop = entry.resources
      .open()
      .then(() =>
        watch((change) => emit(entry.plugin.id, change), {
          config: entry.config,
          resources: entry.resources.current,
        }),
      )
      .catch(() => undefined);
    watching.set(entry, stop);
  };
  const stop = async (entries: ReadonlyArray<PluginEntry>) => {
    const stops = entries.map((e) => watching.get(e));
    for (const e of entries) watching.delete(e);
    for (const s of stops) (await s)?.();
  };
  // A plugin registered (or replaced) while someone listens is watched too; a removed one stops.
  registry.onChange(() => {
    if (listeners.size === 0) return;
    const now = new Set(registry.plugins());
    void stop([...watching.keys()].filter((e) => !now.has(e)));
    for (const entry of now) start(entry);
  });

  return {
    /** Listens to every plugin's resource changes; returns how to stop listening. */
    onResourceChange: (listener: ResourceChangeListener): (() => void) => {
      listeners.add(listener);
      if (listeners.size === 1) for (const entry of registry.plugins()) start(entry);
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        void stop([...watching.keys()]);
      };
    },
    /** Stops every watcher (the catalog is closing). */
    close: async () => {
      listeners.clear();
      await stop([...watching.keys()]);
    },
  };
};
