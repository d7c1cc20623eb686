import * as Context from "effect/Context";
import * as References from "effect/References";
import type * as Scope from "effect/Scope";
import * as Tracer from "effect/Tracer";
import type { Breaker } from "../policies/breaker-policy.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import type { PolicyKit } from "../policies/policy-kit.js";
import type { RateLimitStep } from "../policies/rate-limit-policy.js";
import { type RetryPlan, retryPlan } from "../policies/retry-policy.js";
import { ToolMetrics } from "../runtime/metrics.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { Spans } from "../runtime/spans.js";
import { registerBreakerState } from "../runtime/tool-stats.js";
import type { StoreDriver } from "../store/store-driver.js";
import { ResultCache } from "./result-cache.js";

/** What a tool's calls go through, built once, at its first call, in the runtime's context. */
export interface ToolSteps {
  readonly cache: ResultCache | undefined;
  readonly rateLimit: RateLimitStep | undefined;
  readonly breaker: Breaker | undefined;
  readonly retry: RetryPlan | undefined;
  /** The tool's metric series (a tool registered again counts on in the same series). */
  readonly metrics: ToolMetrics;
  /** Where a call's spans are made: only when a tracer is installed. */
  readonly spans: Spans | undefined;
}

/** What every tool's steps are built from, shared by the tools of one catalog. */
export interface StepSources {
  readonly clock: PolicyClock;
  /** The catalog's store: cached results of every process on it. */
  readonly store: StoreDriver;
  /** How long an artifact spilled out of an answer stays readable (`CatalogOptions.resultTtl`). */
  readonly resultTtlMs: number;
  /** The runtime's scope: the circuits close with it. */
  readonly scope: Scope.Scope;
  /** One circuit per key and settings, shared by the tools that name it. */
  readonly breakers: Map<string, Breaker>;
  /** Each tool's metric series, by name and plugin. */
  readonly series: Map<string, ToolMetrics>;
  /** The breaker and rate-limit builders, loaded at the first need (`policy-kit.ts`). */
  readonly policyKit: () => Promise<PolicyKit>;
}

/** Longest a process's run keeps the others waiting for its result (then they run it themselves). */
const MAX_LEASE_MS = 60_000;

/** Whether a tool's steps need effect/persistence (a breaker or a rate limit). */
const needsKit = (reg: RegisteredTool): boolean =>
  reg.policy.breaker !== undefined || (reg.policy.rateLimit?.length ?? 0) > 0;

/**
 * A tool's steps, built at its first call from its resolved policy (each step absent when the policy
 * has none): the policy kit loaded first when it has a breaker or a rate limit.
 */
export const buildSteps = async (
  reg: RegisteredTool,
  context: Context.Context<never>,
  sources: StepSources,
): Promise<ToolSteps> => {
  const kit = needsKit(reg) ? await sources.policyKit() : undefined;
  const { policy } = reg;
  const tracer = Context.get(context, Tracer.Tracer);
  const traced = tracer !== Tracer.nativeTracer && Context.get(context, References.TracerEnabled);
  return {
    cache: policy.cache
      ? new ResultCache({
          ttlMs: policy.cache.ttlMs,
          capacity: policy.cache.capacity,
          clock: sources.clock,
          store: sources.store,
          leaseMs: Math.min(policy.timeoutMs + 1_000, MAX_LEASE_MS),
          redact: reg.redactData,
        })
      : undefined,
    rateLimit: kit?.rateLimitStep(kit.context, policy.rateLimit, reg.name),
    breaker: kit && breakerOf(policy.breaker, kit, sources),
    retry: retryPlan(policy.retry),
    metrics: metricsOf(reg, context, sources),
    spans: traced ? Spans.of(context) : undefined,
  };
};

/** The circuit of a breaker policy: one per key and settings in the catalog, made at its first need. */
export const breakerOf = (
  policy: RegisteredTool["policy"]["breaker"],
  kit: PolicyKit,
  sources: StepSources,
): Breaker | undefined => {
  if (!policy) return undefined;
  const id = `${policy.key}|${policy.failures}|${policy.openForMs}`;
  let breaker = sources.breakers.get(id);
  if (!breaker) {
    breaker = kit.makeBreaker(policy, sources.scope, kit.context);
    registerBreakerState(policy.key, kit.context, breaker.state);
    sources.breakers.set(id, breaker);
  }
  return breaker;
};

const metricsOf = (
  reg: RegisteredTool,
  context: Context.Context<never>,
  sources: StepSources,
): ToolMetrics => {
  const key = `${reg.name}\u0000${reg.pluginId}`;
  let metrics = sources.series.get(key);
  if (!metrics) {
    metrics = new ToolMetrics(reg.name, reg.pluginId, context, sources.clock.monotonic);
    sources.series.set(key, metrics);
  }
  return metrics;
};
