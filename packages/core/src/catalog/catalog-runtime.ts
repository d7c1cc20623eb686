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
import { DEFAULT_RESULT_TTL_MS } from "../call/result-resources.js";
import { createCallRunner } from "../call/run-call.js";
import { createSlotRunner, type SlotRunner } from "../call/run-slot.js";
import { toMillis } from "../duration.js";
import type { HttpClient } from "../http/index.js";
import { policyClock } from "../policies/policy-clock.js";
import type { PolicyKit } from "../policies/policy-kit.js";
import { ConfirmationStore } from "../runtime/confirmations.js";
import { logToStderr, runtimeLogLayer } from "../runtime/runtime-log.js";
import { summarise, type ToolStats } from "../runtime/tool-stats.js";
import { memoryDriver } from "../store/memory-driver.js";
import type { Catalog, CatalogOptions } from "./catalog-types.js";
import type { Registry } from "./registry.js";

/** What a catalog runs calls with: its calls, slots and figures, and how it stops. */
export type CatalogRuntime = Pick<Catalog, "call" | "stats" | "metrics" | keyof SlotRunner> & {
  /** Interrupts the calls in flight (each answers `unavailable`); later calls are refused. */
  readonly stop: () => Promise<void>;
  /** Releases the runtime's scope and services. */
  readonly dispose: () => Promise<void>;
};

/**
 * Builds the runtime for a catalog's registry: the Effect services its calls run on (the metric
 * registry, the clock, the log; the rate limiter and the circuits' store, on the store driver's
 * `policyStores` when it has them, else in this process's memory, built at the first call that needs
 * them: `policy-kit.ts`) and the call runner.
 */
export const createCatalogRuntime = (
  options: CatalogOptions,
  registry: Registry,
  http: HttpClient,
): CatalogRuntime => {
  const clock = policyClock(options.clock);
  const store = options.store ?? memoryDriver({ now: clock.monotonic });
  const base = Layer.mergeAll(
    Layer.succeed(Metric.MetricRegistry, new Map()),
    options.clock ? Layer.succeed(Clock.Clock, options.clock) : Layer.empty,
    runtimeLogLayer(options.log ?? logToStderr),
  );
  // The extra layer is built over the base, so an exporter in it (OTLP metrics) reads this runtime's
  // metric registry, not Effect's global one.
  const layer = options.layer ? Layer.provideMerge(options.layer, base) : base;
  const runtime = ManagedRuntime.make(layer as Layer.Layer<never>);
  const scope = Scope.makeUnsafe();
  let kit: Promise<PolicyKit> | undefined;
  /** The breaker and rate-limit builders with their stores, loaded and built at the first need. */
  const policyKit = () =>
    (kit ??= import("../policies/policy-kit.js").then(async (m) => {
      const context = (await runtime.context()) as Context.Context<never>;
      return Effect.runPromiseWith(context)(m.buildPolicyKit(context, store.policyStores, scope));
    }));
  const resultTtlMs = options.resultTtl === undefined ? DEFAULT_RESULT_TTL_MS : toMillis(options.resultTtl);
  const sources = { clock, store, resultTtlMs, scope, breakers: new Map(), series: new Map(), policyKit };
  // What calls and slots alike run with.
  const shared = { registry, runtime, sources, requiredScopes: options.requiredScopes };
  const runner = createCallRunner({
    ...shared,
    services: {
      http,
      clock: options.clock ?? Clock.Clock.defaultValue(),
      callTool: (name, input, callOptions) => runner.call(name, input, callOptions),
      hasTool: (name) => registry.lookup(name) !== undefined,
    },
    confirmations: new ConfirmationStore(store, 5 * 60_000, clock.now),
    tracePrincipal: options.tracePrincipal ?? false,
  });
  const slots = createSlotRunner({ ...shared, http, policies: options.policies });

  const stats = async (): Promise<ReadonlyArray<ToolStats>> => {
    const tools = [...registry.tools()];
    const figures = summarise(await runtime.runPromise(Metric.snapshot), tools);
    return Promise.all(
      figures.map(async (figure, i) => {
        const state = await (await runner.stepsOf(tools[i]!)).breaker?.state();
        return state ? { ...figure, breaker: state } : figure;
      }),
    );
  };

  return {
    call: runner.call,
    ...slots,
    stats,
    metrics: () => runtime.runPromise(Metric.snapshot),
    stop: runner.stop,
    dispose: async () => {
      await runtime.runPromise(Scope.close(scope, Exit.void));
      await runtime.dispose();
    },
  };
};
