// The part of a catalog that runs calls, on Effect. create-catalog imports it at the first call (or
// `stats`, `metrics`, `callMany`): a host that only lists, describes or exports tools never loads
// Effect's runtime (its start-up cost is in bench/README.md).
import * as Clock from "effect/Clock";
import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Metric from "effect/Metric";
import * as Scope from "effect/Scope";
import type { ToolResult } from "../envelope.js";
import type { HttpClient } from "../http/index.js";
import type { Breaker } from "../policies/breaker-policy.js";
import { policyClock } from "../policies/policy-clock.js";
import type { RateGate } from "../policies/rate-limit-policy.js";
import type { ResolvedPolicy } from "../policies/resolve-policy.js";
import { storeBreaker, storeLayer, storeRateGate } from "../policies/store-policies.js";
import type { CallOptions } from "../runtime/call-types.js";
import { ConfirmationStore } from "../runtime/confirmations.js";
import { registerBreakerState, summarise, type ToolStats } from "../runtime/metrics.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { logToStderr, runtimeLogLayer } from "../runtime/runtime-log.js";
import { memoryDriver } from "../store/memory-driver.js";
import type { CatalogOptions } from "./catalog-types.js";
import { createDispatch } from "./dispatch.js";
import type { Registry } from "./registry.js";

/** What a catalog runs calls with. */
export interface CatalogRuntime {
  /** Calls a tool; always resolves with an envelope. */
  readonly call: (name: string, input: unknown, options?: CallOptions) => Promise<ToolResult>;
  readonly stats: () => Promise<ReadonlyArray<ToolStats>>;
  readonly metrics: () => Promise<ReadonlyArray<Metric.Metric.Snapshot>>;
  /** Interrupts the calls in flight (each answers `unavailable`); later calls are refused. */
  readonly stop: () => Promise<void>;
  /** Releases the runtime's scope and services. */
  readonly dispose: () => Promise<void>;
}

/** Builds the runtime for a catalog's registry. */
export const createCatalogRuntime = (
  options: CatalogOptions,
  registry: Registry,
  http: HttpClient,
): CatalogRuntime => {
  const clock = policyClock(options.clock);
  const store = options.store ?? memoryDriver({ now: clock.monotonic });
  const base = Layer.mergeAll(
    storeLayer(store.policyStores),
    Layer.succeed(Metric.MetricRegistry, new Map()),
    options.clock ? Layer.succeed(Clock.Clock, options.clock) : Layer.empty,
    runtimeLogLayer(options.log ?? logToStderr),
  );
  // The extra layer is built over the base, so an exporter in it (OTLP metrics) reads this runtime's
  // metric registry, not Effect's global one.
  const layer = options.layer ? Layer.provideMerge(options.layer, base) : base;
  const runtime = ManagedRuntime.make(layer as Layer.Layer<never>);
  const scope = Scope.makeUnsafe();
  let gate: RateGate | undefined;
  /** Where calls take rate-limit tokens, in the runtime's built context. */
  const rateGate = (context: Context.Context<never>): RateGate => {
    gate ??= storeRateGate(context);
    return gate;
  };

  // One circuit per key and settings, shared by the tools that name it.
  const breakers = new Map<string, Breaker>();
  const breakerFor = (policy: NonNullable<ResolvedPolicy["breaker"]>): Breaker => {
    const id = `${policy.key}|${policy.failures}|${policy.openForMs}`;
    let breaker = breakers.get(id);
    if (!breaker) {
      breaker = lazyBreaker(policy);
      breakers.set(id, breaker);
    }
    return breaker;
  };
  /** A circuit over the runtime's store, made at its first use (calls run once the runtime is built). */
  const lazyBreaker = (policy: NonNullable<ResolvedPolicy["breaker"]>): Breaker => {
    let made: Breaker | undefined;
    const get = (context: Context.Context<never>) => {
      if (!made) {
        const breaker = storeBreaker(policy, scope, context);
        registerBreakerState(policy.key, context, breaker.state);
        made = breaker;
      }
      return made;
    };
    return {
      guard: (self, tool) =>
        Effect.withFiber((fiber) => get(fiber.context as Context.Context<never>).guard(self, tool)),
      state: async () => get((await runtime.context()) as Context.Context<never>).state(),
    };
  };
  const breakerOf = (reg: RegisteredTool): Breaker | undefined =>
    reg.policy.breaker ? breakerFor(reg.policy.breaker) : undefined;

  const dispatch = createDispatch({
    registry,
    runtime,
    world: {
      http,
      clock: options.clock ?? Clock.Clock.defaultValue(),
      callTool: (name, input, callOptions) => dispatch.call(name, input, callOptions),
      hasTool: (name) => registry.lookup(name) !== undefined,
    },
    clock,
    rateGate,
    breakerOf,
    memory: { store, now: clock.now },
    confirmations: new ConfirmationStore(store, 5 * 60_000, clock.now),
    store,
    tracePrincipal: options.tracePrincipal,
    requiredScopes: options.requiredScopes,
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
        p99Ms: undefined,
        cacheHitRate: undefined,
      };
      const state = await breakerOf(reg)?.state();
      out.push(state ? { ...s, breaker: state } : s);
    }
    return out;
  };

  return {
    call: dispatch.call,
    stats,
    metrics: () => runtime.runPromise(Metric.snapshot),
    stop: dispatch.stop,
    dispose: async () => {
      await runtime.runPromise(Scope.close(scope, Exit.void));
      await runtime.dispose();
    },
  };
};
