import { Clock, Exit, Layer, ManagedRuntime, Metric, Scope } from "effect";
import { CircuitBreaker, RateLimiter } from "effect/persistence";
import { createHttpClient } from "../http/index.js";
import { type Breaker, localBreaker, storeBreaker } from "../policies/breaker-policy.js";
import { policyClock } from "../policies/policy-clock.js";
import type { ResolvedPolicy } from "../policies/resolve-policy.js";
import { callConcurrently } from "../runtime/call-many.js";
import { ConfirmationStore } from "../runtime/confirmations.js";
import { summarise, type ToolStats } from "../runtime/metrics.js";
import { SessionTracker } from "../runtime/session-tracker.js";
import { StaleStore } from "../runtime/stale-store.js";
import type { Catalog, CatalogOptions } from "./catalog-types.js";
import { createDispatch } from "./dispatch.js";
import { openPlugin, pluginHealth } from "./plugin-health.js";
import { createRegistry, toolInfo } from "./registry.js";
import { createSchemaExport } from "./schema-export.js";

/**
 * Creates a catalog: register plugins, then list, describe and call their tools by name.
 * It is three parts, each in its own module: the registry (plugins, tools, aliases), the schema
 * export (tools for each model provider) and dispatch (calls through the runtime).
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(fdaPlugin)
 * const result = await catalog.call("fda_search_drugs", { search_criteria: { active_ingredient: "imatinib" } })
 */
export const createCatalog = (options: CatalogOptions = {}): Catalog => {
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createHttpClient();
  const clock = policyClock(options.clock);
  const stores =
    options.stores ?? Layer.mergeAll(RateLimiter.layerStoreMemory, CircuitBreaker.layerStoreMemory());
  const layer = Layer.mergeAll(
    RateLimiter.layer,
    Layer.succeed(Metric.MetricRegistry, new Map()),
    options.clock ? Layer.succeed(Clock.Clock, options.clock) : Layer.empty,
    options.layer ?? Layer.empty,
  ).pipe(Layer.provideMerge(stores));
  const runtime = ManagedRuntime.make(layer);
  const scope = Scope.makeUnsafe();

  // One circuit per key and settings, shared by the tools that name it.
  const breakers = new Map<string, Breaker>();
  const breakerFor = (policy: NonNullable<ResolvedPolicy["breaker"]>): Breaker => {
    const id = `${policy.key}|${policy.failures}|${policy.openForMs}`;
    let breaker = breakers.get(id);
    if (!breaker) {
      breaker = options.stores
        ? storeBreaker(
            policy,
            scope,
            (e) => runtime.runSync(e),
            (e) => runtime.runPromise(e),
          )
        : localBreaker(policy, clock);
      breakers.set(id, breaker);
    }
    return breaker;
  };

  const registry = createRegistry({
    http,
    env: options.env ?? process.env,
    policies: options.policies,
    aliases: options.aliases,
    breakerFor,
  });
  const schemas = createSchemaExport(registry);
  const dispatch = createDispatch({
    registry,
    runtime,
    world: {
      http,
      callTool: (name, input, callOptions) => dispatch.call(name, input, callOptions),
      hasTool: (name) => registry.lookup(name) !== undefined,
    },
    clock,
    memory: { sessions: new SessionTracker(), stale: new StaleStore(5_000, clock.now), now: clock.now },
    confirmations: new ConfirmationStore(5 * 60_000, clock.now),
  });

  const stats = async (): Promise<ReadonlyArray<ToolStats>> => {
    const figures = summarise(await runtime.runPromise(Metric.snapshot));
    const out: ToolStats[] = [];
    for (const reg of registry.tools()) {
      const s = figures.find((f) => f.tool === reg.name) ?? {
        tool: reg.name,
        plugin: reg.pluginId,
        calls: 0,
        successes: 0,
        failures: 0,
        failuresByKind: {},
        p50Ms: undefined,
        p95Ms: undefined,
        cacheHitRate: undefined,
      };
      const state = await reg.breaker?.state();
      out.push(state ? { ...s, breaker: state } : s);
    }
    return out;
  };

  return {
    register: registry.register,
    unregister: registry.unregister,
    plugins: () => [...registry.plugins()].map((p) => p.info),
    list: () => [
      ...[...registry.tools()].map(toolInfo),
      ...registry.liveAliases().map(({ alias, reg }) => ({ ...toolInfo(reg), name: alias })),
    ],
    has: (name) => registry.lookup(name) !== undefined,
    describe: schemas.describe,
    call: dispatch.call,
    callMany: (calls, opts = {}) => callConcurrently(dispatch.call, calls, opts),
    schemas: schemas.schemas,
    schemaErrors: schemas.schemaErrors,
    export: schemas.export,
    stats,
    metrics: () => runtime.runPromise(Metric.snapshot),
    health: (pluginId, signal) => pluginHealth(registry.plugin(pluginId), pluginId, http, signal),
    open: (pluginId) => openPlugin(registry.plugin(pluginId), pluginId),
    checkAliases: registry.checkAliases,
    onChange: (listener) => registry.onChange(() => listener()),
    close: async () => {
      // Calls in flight end first (interrupted, their upstream requests aborted), then what the
      // plugins opened is closed: a call never sees its index or connection closed under it.
      await dispatch.stop();
      for (const { resources } of registry.plugins()) await resources.close();
      await runtime.runPromise(Scope.close(scope, Exit.void));
      await runtime.dispose();
      if (ownsHttp) await http.close();
    },
  };
};
