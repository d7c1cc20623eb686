import type * as Context from "effect/Context";
import type { Breaker } from "../policies/breaker-policy.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import type { RateGate } from "../policies/rate-limit-policy.js";
import { buildPipeline, type ToolPipeline } from "../runtime/call-pipeline.js";
import { ToolMetrics } from "../runtime/metrics.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import type { ToolWorld } from "../runtime/tool-context.js";
import type { StoreDriver } from "../store/store-driver.js";

/** What tools' pipelines are built from. */
export interface PipelineSources {
  readonly world: ToolWorld;
  readonly clock: PolicyClock;
  /** Where calls take rate-limit tokens, given the runtime's built context. */
  readonly rateGate: (context: Context.Context<never>) => RateGate;
  /** The circuit a tool's calls go through, if its policy has a breaker. */
  readonly breakerOf: (reg: RegisteredTool) => Breaker | undefined;
  /** The catalog's store (results of every process on it). */
  readonly store: StoreDriver;
}

/**
 * Each tool's pipeline, composed at its first call (in the runtime's context), and each tool's metric
 * series, by name and plugin: a tool registered again counts on in the same series.
 */
export const toolPipelines = (sources: PipelineSources) => {
  const pipelines = new WeakMap<RegisteredTool, ToolPipeline>();
  const series = new Map<string, ToolMetrics>();
  const metricsOf = (reg: RegisteredTool, context: Context.Context<never>): ToolMetrics => {
    const key = `${reg.name}\u0000${reg.pluginId}`;
    let metrics = series.get(key);
    if (!metrics) {
      metrics = new ToolMetrics(reg.name, reg.pluginId, context, sources.clock.monotonic);
      series.set(key, metrics);
    }
    return metrics;
  };
  return (reg: RegisteredTool, context: Context.Context<never>): ToolPipeline => {
    let pipeline = pipelines.get(reg);
    if (!pipeline) {
      pipeline = buildPipeline(reg, {
        world: sources.world,
        clock: sources.clock,
        rateGate: sources.rateGate(context),
        breaker: sources.breakerOf(reg),
        context,
        store: sources.store,
        metrics: metricsOf(reg, context),
      });
      pipelines.set(reg, pipeline);
    }
    return pipeline;
  };
};
