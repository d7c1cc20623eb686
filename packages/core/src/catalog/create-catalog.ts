import * as Clock from "effect/Clock";
import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Metric from "effect/Metric";
import * as Scope from "effect/Scope";
import { createHttpClient } from "../http/index.js";
import { type Breaker, localBreaker } from "../policies/breaker-policy.js";
import { policyClock } from "../policies/policy-clock.js";
import { localRateGate, type RateGate } from "../policies/rate-limit-policy.js";
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

type StorePolicies = typeof import("../policies/store-policies.js");

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
  // Shared stores run rate limits and breakers on effect/persistence, loaded only then (its import
  // costs 85 ms and 18 MB at start-up); the in-memory defaults are LocalRateLimiter and LocalBreaker.
  const stores = options.stores;
  let storePolicies: StorePolicies | undefined;
  const storeLayer = stores
    ? Layer.unwrap(
        Effect.promise(async () => {
          storePolicies = await import("../policies/store-policies.js");
          return storePolicies.storeLayer(stores);
        }),
      )
    : Layer.empty;
  const layer = Layer.mergeAll(
    storeLayer,
    Layer.succeed(Metric.MetricRegistry, new Map()),
    options.clock ? Layer.succeed(Clock.Clock, options.clock) : Layer.empty,
    options.layer ?? Layer.empty,
  );
  const runtime = ManagedRuntime.make(layer as Layer.Layer<never>);
  const scope = Scope.makeUnsafe();
  const localGate = localRateGate(clock);
  let storeGate: RateGate | undefined;
  /** Where calls take rate-limit tokens, in the runtime's built context. */
  const rateGate = (context: Context.Context<never>): RateGate => {
    if (!storePolicies) return localGate;
    storeGate ??= storePolicies.storeRateGate(context);
    return storeGate;
  };

  // One circuit per key and settings, shared by the tools that name it.
  const breakers = new Map<string, Breaker>();
  const breakerFor = (policy: NonNullable<ResolvedPolicy["breaker"]>): Breaker => {
    const id = `${policy.key}|${policy.failures}|${policy.openForMs}`;
    let breaker = breakers.get(id);
    if (!breaker) {
      breaker = stores ? lazyStoreBreaker(policy) : localBreaker(policy, clock);
      breakers.set(id, breaker);
    }
    return breaker;
  };
  /** A circuit over the shared store, made at its first use (calls run once the runtime is built). */
  const lazyStoreBreaker = (policy: NonNullable<ResolvedPolicy["breaker"]>): Breaker => {
    let made: Breaker | undefined;
    const get = (context: Context.Context<never>) => {
      made ??= storePolicies!.storeBreaker(policy, scope, context);
      return made;
    };
    return {
      guard: (self, tool) =>
        Effect.withFiber((fiber) => get(fiber.context as Context.Context<never>).guard(self, tool)),
      state: async () => get((await runtime.context()) as Context.Context<never>).state(),
    };
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
    rateGate,
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
