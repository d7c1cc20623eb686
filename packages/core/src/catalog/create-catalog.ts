import { createHttpClient } from "../http/index.js";
import { callConcurrently } from "../runtime/call-many.js";
import type { CatalogRuntime } from "./catalog-runtime.js";
import type { Catalog, CatalogOptions } from "./catalog-types.js";
import { openPlugin, pluginHealth } from "./plugin-health.js";
import { createRegistry, toolInfo } from "./registry.js";
import { createResourceChanges } from "./resource-changes.js";
import { createSchemaExport } from "./schema-export.js";

/**
 * Creates a catalog: register plugins, then list, describe and call their tools by name.
 * It is three parts, each in its own module: the registry (plugins, tools, aliases), the schema
 * export (tools for each model provider) and the runtime (`catalog-runtime.ts`: dispatch through the
 * policies), which is loaded at the first call, so listing tools never loads Effect's runtime.
 *
 * @example
 * import fdaPlugin from "@quiver/plugin-fda";
 * const catalog = createCatalog()
 * catalog.register(fdaPlugin)
 * const result = await catalog.call("fda_search_drugs", { search_criteria: { active_ingredient: "imatinib" } })
 */
export const createCatalog = (options: CatalogOptions = {}): Catalog => {
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createHttpClient();
  const registry = createRegistry({
    ...options,
    http,
    env: options.env ?? process.env,
    // The live clock is Effect's default, imported at a setup's first need like the runtime.
    clock: async () => options.clock ?? (await import("effect/Clock")).Clock.defaultValue(),
  });
  const schemas = createSchemaExport(registry);
  const changes = createResourceChanges(registry);
  let runtime: Promise<CatalogRuntime> | undefined;
  let closed = false;
  /** The runtime, loaded and built at its first need. */
  const load = (): Promise<CatalogRuntime> =>
    (runtime ??= import("./catalog-runtime.js").then((m) => {
      const loaded = m.createCatalogRuntime(options, registry, http);
      // A call goes from its caller straight into the runtime's steps, with no hop through here.
      catalog.call = loaded.call;
      return loaded;
    }));
  /** The first call loads the runtime; from then on the catalog's `call` is the runtime's own. */
  const firstCall: Catalog["call"] = (name, input, callOptions) =>
    load().then(async (r) => {
      // A call after `close` (which had no runtime to stop) is refused like any call after it.
      if (closed) await r.stop();
      return r.call(name, input, callOptions);
    });

  const catalog: { -readonly [K in keyof Catalog]: Catalog[K] } = {
    register: registry.register,
    unregister: registry.unregister,
    plugins: () =>
      [...registry.plugins()].map(({ info, resources, redact }) =>
        resources.lastFailure === undefined ? info : { ...info, setupError: redact(resources.lastFailure) },
      ),
    list: () => [
      ...[...registry.tools()].map(toolInfo),
      ...registry.liveAliases().map(({ alias, reg }) => ({ ...toolInfo(reg), name: alias })),
    ],
    has: (name) => registry.lookup(name) !== undefined,
    describe: schemas.describe,
    call: firstCall,
    // The slots as listed (in registration order): their descriptors, without their functions.
    resources: () =>
      [...registry.plugins()].flatMap(({ plugin }) =>
        (plugin.resources ?? []).map(({ read: _, ...r }) => ({ ...r, plugin: plugin.id })),
      ),
    // A template with the variables it completes, a prompt's arguments with whether each completes.
    resourceTemplates: () =>
      [...registry.plugins()].flatMap(({ plugin }) =>
        (plugin.resourceTemplates ?? []).map(({ read: _, complete, ...t }) => ({
          ...t,
          plugin: plugin.id,
          completes: Object.keys(complete ?? {}),
        })),
      ),
    prompts: () =>
      [...registry.plugins()].flatMap(({ plugin }) =>
        (plugin.prompts ?? []).map(({ get: _, arguments: args = [], ...p }) => ({
          ...p,
          arguments: args.map(({ complete, ...a }) => ({ ...a, completes: complete !== undefined })),
          plugin: plugin.id,
        })),
      ),
    readResource: async (uri, opts) => (await load()).readResource(uri, opts),
    getPrompt: async (name, args, opts) => (await load()).getPrompt(name, args, opts),
    complete: async (target, value, opts) => (await load()).complete(target, value, opts),
    callMany: (calls, opts = {}) => callConcurrently(catalog.call, calls, opts),
    schemas: schemas.schemas,
    schemaErrors: schemas.schemaErrors,
    export: schemas.export,
    stats: async () => (await load()).stats(),
    metrics: async () => (await load()).metrics(),
    health: (pluginId, signal) => pluginHealth(registry.plugin(pluginId), pluginId, http, signal),
    open: (pluginId) => openPlugin(registry.plugin(pluginId), pluginId),
    checkAliases: registry.checkAliases,
    onChange: (listener) => registry.onChange(() => listener()),
    onResourceChange: changes.onResourceChange,
    close: async () => {
      // Calls in flight end first (interrupted, their upstream requests aborted), then what the
      // plugins opened is closed: a call never sees its index or connection closed under it.
      if (closed) return;
      closed = true;
      const running = runtime ? await runtime : undefined;
      await running?.stop();
      await changes.close();
      for (const { resources } of registry.plugins()) await resources.close();
      await running?.dispose();
      await options.store?.close?.().catch(() => undefined);
      if (ownsHttp) await http.close();
    },
  };
  return catalog;
};
