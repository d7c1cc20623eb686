import { Cache, type Cause, Context, Effect, Exit, References, Tracer } from "effect";
import { RateLimiter } from "effect/persistence";
import type { ToolResult } from "../envelope.js";
import { TRANSIENT_KINDS } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import { withBreaker } from "../policies/breaker-policy.js";
import { withRateLimit } from "../policies/rate-limit-policy.js";
import { withRetry } from "../policies/retry-policy.js";
import { withTimeout } from "../policies/timeout-policy.js";
import { type CallState, callOf } from "./call-state.js";
import { buildEnvelope } from "./envelope-builder.js";
import { type ExecutorDeps, failureFromCause, redactSecrets, runAttempt } from "./execute-tool.js";
import { type InjectedField, injectedFields } from "./injected-fields.js";
import { ToolMetrics } from "./metrics.js";
import type { Executed, RegisteredTool } from "./registered-tool.js";

const FALLBACK_KINDS: ReadonlySet<string> = TRANSIENT_KINDS;

/** A tool's policies, composed once (at its first call) and run by every call. */
export interface ToolPipeline {
  /**
   * The call after validation: cache → rate limit → breaker → timeout → retry → run, then fallback,
   * output budget, escalation and metrics. Reads its `CallState` from the context; never fails.
   */
  readonly run: Effect.Effect<ToolResult, never, CallState>;
  /** True when a tracing backend is installed: only then is a span made per call. */
  readonly traced: boolean;
  readonly destructive: boolean;
  /** Whether a call needs its cache id (cache or stale fallback) or at least the canonical input. */
  readonly needsCacheId: boolean;
  readonly needsCanonical: boolean;
  /** The tool's context-injected fields. */
  readonly inject: ReadonlyArray<InjectedField>;
}

/**
 * Composes a tool's pipeline from Effect's modules, in the runtime's context (the rate limiter and
 * metric registry are taken from it). Everything that does not depend on the call is made here:
 * the retry schedule, the token request, the breaker options, the timeout handler, the cache and
 * the metric series. The cache is keyed by a string (tool, caller, canonical input), and its lookup
 * runs the shared execution with the state of the call that missed.
 */
export const buildPipeline = (
  reg: RegisteredTool,
  context: Context.Context<never>,
  deps: ExecutorDeps,
): ToolPipeline => {
  const name = reg.name;
  const policy = reg.policy;
  const metrics = new ToolMetrics(reg.name, reg.pluginId);

  const attempt = Effect.withFiber((fiber) => runAttempt(reg, callOf(fiber), deps));
  const principal = Effect.withFiberSucceed((fiber) => callOf(fiber).session.principal);
  const partialData = Effect.withFiberSucceed((fiber) => callOf(fiber).partialData);
  const exec: Effect.Effect<Executed, ToolFailure> = attempt.pipe(
    withRetry(policy.retry),
    withTimeout(policy.timeoutMs, name, partialData),
    withBreaker(reg.breaker, policy.breaker?.key ?? reg.pluginId, name),
    withRateLimit(
      Context.get(context as Context.Context<RateLimiter.RateLimiter>, RateLimiter.RateLimiter),
      policy.rateLimit,
      name,
      principal,
    ),
  );

  let cached: Effect.Effect<Executed, ToolFailure, CallState> = exec;
  if (policy.cache) {
    const ttlMs = policy.cache.ttlMs;
    const lookup = Effect.withFiber((fiber) => {
      callOf(fiber).ran = true;
      return exec;
    });
    // Made with an empty context: the lookup then runs in the caller's context as it is, instead of
    // a merge of the creation context into it on every miss.
    const made = Effect.runFork(
      Cache.makeWith((_id: string) => lookup, {
        capacity: policy.cache.capacity,
        timeToLive: (exit) => (Exit.isSuccess(exit) ? ttlMs : 0),
        requireServicesAt: "lookup",
      }),
    ).pollUnsafe();
    if (!made || Exit.isFailure(made)) throw new Error(`${name}: could not create its cache.`);
    const cache = made.value;
    cached = Effect.withFiber((fiber) => Cache.get(cache, callOf(fiber).cacheId));
  }
  const cacheOf = (s: CallState) => (policy.cache ? (s.ran ? "miss" : "hit") : undefined);

  const record = (envelope: ToolResult, cache: "hit" | "miss" | undefined) =>
    metrics.record(context, envelope.status, envelope.error?.kind, envelope.metadata.durationMs, cache);

  const onSuccess = (executed: Executed) =>
    Effect.withFiber((fiber) => {
      const s = callOf(fiber);
      if (policy.fallback?.stale) deps.stale.set(s.cacheId, executed.data);
      const cache = cacheOf(s);
      const envelope = buildEnvelope(
        {
          reg,
          callId: s.callId,
          durationMs: performance.now() - s.started,
          executed,
          cached: cache === "hit",
          cache,
        },
        deps,
        s.session,
      );
      record(envelope, cache);
      return Effect.succeed(envelope);
    });

  const onFailure = (cause: Cause.Cause<ToolFailure>) =>
    Effect.withFiber((fiber) => {
      const s = callOf(fiber);
      const failure = failureFromCause(cause, name);
      // Every failure of a cached tool comes out of its cache lookup: a miss if this call ran it, a
      // hit if it joined a lookup in flight.
      const cache = cacheOf(s);
      // Built only if it is the answer: building it counts the failure towards escalation.
      const failed = () => {
        const envelope = buildEnvelope(
          {
            reg,
            callId: s.callId,
            durationMs: performance.now() - s.started,
            failure,
            attempts: s.attempts,
            cache,
            staleKey: s.cacheId,
            input: s.input,
          },
          deps,
          s.session,
        );
        record(envelope, cache);
        return envelope;
      };
      const fallbackTool = policy.fallback?.tool;
      if (
        !fallbackTool ||
        s.options.viaFallback ||
        !FALLBACK_KINDS.has(failure.kind) ||
        !deps.hasTool(fallbackTool)
      ) {
        return Effect.succeed(failed());
      }
      return Effect.map(
        Effect.promise(() => deps.callTool(fallbackTool, s.input, { ...s.options, viaFallback: true })),
        (other): ToolResult => {
          if (other.status !== "success" && other.status !== "partial") return failed();
          const envelope: ToolResult = {
            ...other,
            message: `${name} failed (${redactSecrets(failure.message, reg.secrets)}); ${fallbackTool} answered instead. ${other.message}`,
            metadata: { ...other.metadata, tool: name, plugin: reg.pluginId, fallbackTool },
          };
          record(envelope, cache);
          return envelope;
        },
      );
    });

  const tracer = Context.get(context, Tracer.Tracer);
  const inject = injectedFields(reg.tool);
  const needsCacheId = policy.cache !== undefined || Boolean(policy.fallback?.stale);
  const destructive = Boolean(reg.tool.annotations?.destructive);
  return {
    run: Effect.matchCauseEffect(cached, { onSuccess, onFailure }),
    traced: tracer !== Tracer.nativeTracer && Context.get(context, References.TracerEnabled),
    destructive,
    needsCacheId,
    needsCanonical: needsCacheId || destructive,
    inject,
  };
};
