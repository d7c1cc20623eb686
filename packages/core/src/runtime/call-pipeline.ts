import type * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as References from "effect/References";
import * as Tracer from "effect/Tracer";
import type { ToolResult } from "../envelope.js";
import { TRANSIENT_KINDS } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import { type Breaker, withBreaker } from "../policies/breaker-policy.js";
import type { CallStep } from "../policies/call-step.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import { type RateGate, withRateLimit } from "../policies/rate-limit-policy.js";
import { retryPlan, withRetry } from "../policies/retry-policy.js";
import { withTimeout } from "../policies/timeout-policy.js";
import type { StoreDriver } from "../store/store-driver.js";
import type { CallState } from "./call-state.js";
import type { CacheResult, Executed, Outcome } from "./call-types.js";
import type { ToolMetrics } from "./metrics.js";
import type { RegisteredTool } from "./registered-tool.js";
import { ResultCache } from "./result-cache.js";
import { failureFromCause, runAttempt } from "./run-attempt.js";
import { Spans } from "./spans.js";
import type { ToolWorld } from "./tool-context.js";

/** What a tool's pipeline is built from: the runtime's services and the tool's circuit. */
export interface PipelineServices {
  readonly world: ToolWorld;
  readonly clock: PolicyClock;
  readonly rateGate: RateGate;
  readonly breaker: Breaker | undefined;
  /** The runtime's context: whether a tracer is installed is read from it. */
  readonly context: Context.Context<never>;
  /** The catalog's store: cached results of every process on it. */
  readonly store: StoreDriver;
  /** The tool's metric series (kept by the runtime across registrations of the same tool). */
  readonly metrics: ToolMetrics;
}

/** Longest a process's run keeps the others waiting for its result (then they run it themselves). */
const MAX_LEASE_MS = 60_000;

/** A tool's policies, composed once (at its first call) and run by every call. */
export interface ToolPipeline {
  /**
   * The call after its input step: cache → rate limit → breaker → timeout → retry → attempt, then
   * the fallback tool. Never fails. Its policies run when the Effect starts, in the call's fiber.
   */
  readonly run: (call: CallState) => Effect.Effect<Outcome>;
  /**
   * The tool's result cache. Untraced, its local hits are answered without starting a fiber (the
   * caller looks them up with `cache.get` before `run`, which then does not look again).
   */
  readonly cache: ResultCache | undefined;
  /** True when a tracing backend is installed: only then are a call's spans made. */
  readonly traced: boolean;
  /** Where a call's spans are made: the runtime's tracer, when one is installed. */
  readonly spans: Spans | undefined;
  /** The tool's metric series. */
  readonly metrics: ToolMetrics;
}

const FALLBACK_KINDS: ReadonlySet<string> = TRANSIENT_KINDS;

/** Composes a tool's pipeline from its resolved policy. */
export const buildPipeline = (reg: RegisteredTool, services: PipelineServices): ToolPipeline => {
  const { name, policy } = reg;
  const { world, clock } = services;
  // Traced, each attempt runs in a span of its own, which its upstream requests find (`requestParent`).
  const attempt: CallStep<CallState, Executed> = (call) =>
    call.trace
      ? call.trace.attempt(call.attempts + 1, (scope) => runAttempt(reg, call, world, scope))
      : runAttempt(reg, call, world);
  // The policies from the outside in; each wraps the step after it (see `CallStep`).
  const policies = [
    withRateLimit<CallState>(services.rateGate, policy.rateLimit, name),
    withBreaker<CallState>(services.breaker, name),
    withTimeout<CallState>(policy.timeoutMs, name),
    withRetry<CallState>(retryPlan<CallState>(policy.retry)),
  ];
  const exec = policies.reduceRight((next, wrap) => wrap(next), attempt);

  const cache = policy.cache
    ? new ResultCache({
        ttlMs: policy.cache.ttlMs,
        capacity: policy.cache.capacity,
        clock,
        store: services.store,
        leaseMs: Math.min(policy.timeoutMs + 1_000, MAX_LEASE_MS),
        redact: reg.redactData,
      })
    : undefined;
  const tracer = Context.get(services.context, Tracer.Tracer);
  const traced = tracer !== Tracer.nativeTracer && Context.get(services.context, References.TracerEnabled);

  /** A failed call's outcome: its failure, or its fallback tool's answer (never a fallback's fallback). */
  const failed = (
    s: CallState,
    failure: ToolFailure,
    cacheResult: CacheResult,
  ): Outcome | Promise<Outcome> => {
    const outcome: Outcome = { _tag: "Failed", failure, attempts: s.attempts, cache: cacheResult };
    const fallbackTool = policy.fallback?.tool;
    if (
      !fallbackTool ||
      s.options.viaFallback ||
      !FALLBACK_KINDS.has(failure.kind) ||
      !world.hasTool(fallbackTool)
    ) {
      return outcome;
    }
    return world
      .callTool(fallbackTool, s.input, {
        ...s.options,
        viaFallback: true,
        ...(s.trace ? { trace: s.trace.childContext(), transportSpan: undefined } : {}),
      })
      .then(
        (answer: ToolResult): Outcome =>
          answer.status === "success" || answer.status === "partial"
            ? { _tag: "FellBack", failure, fallbackTool, answer, cache: cacheResult }
            : outcome,
      );
  };
  const failedWith = (
    s: CallState,
    cause: Cause.Cause<ToolFailure>,
    cacheResult: CacheResult,
  ): Effect.Effect<Outcome> => {
    const outcome = failed(s, failureFromCause(cause, name), cacheResult);
    return outcome instanceof Promise ? Effect.promise(() => outcome) : Effect.succeed(outcome);
  };

  const succeeded = (executed: Executed, cacheResult: CacheResult): Effect.Effect<Outcome> =>
    Effect.succeed({ _tag: "Succeeded", executed, cache: cacheResult });

  return {
    // Suspended: the policies run when the call's fiber starts the Effect, not when it is made.
    run: cache
      ? (s) =>
          Effect.suspend(() =>
            Effect.flatMap(
              cache.through(s.cacheId, () => exec(s), { looked: !traced, startedAt: s.startedAt }),
              (answer) =>
                Exit.isSuccess(answer.exit)
                  ? succeeded(answer.exit.value, answer.cache)
                  : failedWith(s, answer.exit.cause, answer.cache),
            ),
          )
      : (s) =>
          Effect.suspend(() =>
            Effect.matchCauseEffect(exec(s), {
              onSuccess: (executed) => succeeded(executed, undefined),
              onFailure: (cause) => failedWith(s, cause, undefined),
            }),
          ),
    cache,
    metrics: services.metrics,
    traced,
    spans: traced ? Spans.of(services.context) : undefined,
  };
};
