import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import type * as ManagedRuntime from "effect/ManagedRuntime";
import type { ToolResult } from "../envelope.js";
import { fail, type ToolFailure } from "../errors.js";
import type { Breaker } from "../policies/breaker-policy.js";
import type { PolicyClock } from "../policies/policy-clock.js";
import type { RateGate } from "../policies/rate-limit-policy.js";
import { type CallMemory, type Settled, settle } from "../runtime/after-call.js";
import { nextCallId } from "../runtime/call-id.js";
import { type InputStep, prepareInput } from "../runtime/call-input.js";
import { buildPipeline, type ToolPipeline } from "../runtime/call-pipeline.js";
import { CallState } from "../runtime/call-state.js";
import type { CallOptions, Outcome, SessionContext } from "../runtime/call-types.js";
import { confirmationOutcome } from "../runtime/confirmation-preview.js";
import type { ConfirmationStore } from "../runtime/confirmations.js";
import { ToolMetrics } from "../runtime/metrics.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import type { SharedStore } from "../runtime/shared-store.js";
import { toEnvelope } from "../runtime/to-envelope.js";
import type { ToolWorld } from "../runtime/tool-context.js";
import { closestMatches } from "../schema/edit-distance.js";
import type { Registry } from "./registry.js";

/** What dispatch runs calls with. */
export interface DispatchOptions {
  readonly registry: Registry;
  readonly runtime: ManagedRuntime.ManagedRuntime<never, never>;
  readonly world: ToolWorld;
  readonly clock: PolicyClock;
  /** Where calls take rate-limit tokens, given the runtime's built context. */
  readonly rateGate: (context: Context.Context<never>) => RateGate;
  /** The circuit a tool's calls go through, if its policy has a breaker. */
  readonly breakerOf: (reg: RegisteredTool) => Breaker | undefined;
  readonly memory: CallMemory;
  readonly confirmations: ConfirmationStore;
  /** Where results are shared with other replicas, if anywhere. */
  readonly shared?: SharedStore | undefined;
}

/** Calls tools by name, and stops the calls in flight. */
export interface Dispatch {
  /** Calls a tool; always resolves with an envelope, never rejects. */
  call(name: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
  /** Interrupts every call in flight (each resolves with `unavailable`); later calls are refused. */
  stop(): Promise<void>;
}

const NO_SESSION: SessionContext = Object.freeze({});

/**
 * A call in four steps, each in its own module: the input step (`prepareInput`: configuration,
 * validation, repair, confirmation), the tool's pipeline (`buildPipeline`: cache, rate limit,
 * breaker, timeout, retry, attempt, fallback) ending in an `Outcome`, the memory step (`settle`:
 * escalation and stale results), and `toEnvelope`. A cache hit is answered without starting a fiber;
 * every other call runs the pipeline's Effect in a fiber of its own.
 */
export const createDispatch = (options: DispatchOptions): Dispatch => {
  const { registry, runtime, world, clock, memory, confirmations } = options;
  // Calls run as fibers on the runtime's context directly (not through `runtime.runPromiseExit`, which
  // also ties each fiber into the runtime's scope); `stop` interrupts the ones in flight.
  const inflight = new Set<Fiber.Fiber<Outcome>>();
  let stopping = false;

  // Each tool's policies, composed at its first call (in the runtime's context).
  const pipelines = new WeakMap<RegisteredTool, ToolPipeline>();
  // Each tool's metric series, by name and plugin: a tool registered again counts on in the same series.
  const series = new Map<string, ToolMetrics>();
  const metricsOf = (reg: RegisteredTool, context: Context.Context<never>): ToolMetrics => {
    const key = `${reg.name}\u0000${reg.pluginId}`;
    let metrics = series.get(key);
    if (!metrics) {
      metrics = new ToolMetrics(reg.name, reg.pluginId, context, clock.monotonic);
      series.set(key, metrics);
    }
    return metrics;
  };
  const pipelineOf = (reg: RegisteredTool, context: Context.Context<never>): ToolPipeline => {
    let pipeline = pipelines.get(reg);
    if (!pipeline) {
      pipeline = buildPipeline(reg, {
        world,
        clock,
        rateGate: options.rateGate(context),
        breaker: options.breakerOf(reg),
        context,
        shared: options.shared,
        metrics: metricsOf(reg, context),
      });
      pipelines.set(reg, pipeline);
    }
    return pipeline;
  };

  const start = (
    context: Context.Context<never>,
    reg: RegisteredTool,
    raw: unknown,
    callOptions: CallOptions,
    started: number,
  ): ToolResult | Promise<ToolResult> => {
    const step = prepareInput(reg, raw, callOptions, confirmations);
    // A destructive tool's token checked in the shared store: the call goes on once it is.
    return step instanceof Promise
      ? step
          .then((ready) => proceed(context, reg, ready, callOptions, started))
          .catch(() => refuse(reg, callOptions, started))
      : proceed(context, reg, step, callOptions, started);
  };

  const proceed = (
    context: Context.Context<never>,
    reg: RegisteredTool,
    step: InputStep,
    callOptions: CallOptions,
    started: number,
  ): ToolResult | Promise<ToolResult> => {
    const pipeline = pipelineOf(reg, context);
    const callId = nextCallId();
    const session = callOptions.session ?? NO_SESSION;
    const finish = (outcome: Outcome, cacheId: string): ToolResult | Promise<ToolResult> => {
      const settled = settle(
        reg,
        outcome,
        { principal: session.principal, sessionId: session.id, cacheId },
        memory,
      );
      return settled instanceof Promise
        ? settled.then((s) => envelopeOf(outcome, s))
        : envelopeOf(outcome, settled);
    };
    const envelopeOf = (outcome: Outcome, settled: Settled): ToolResult => {
      const ended = clock.monotonic();
      const envelope = withRepairs(
        toEnvelope(reg, outcome, settled, { callId, durationMs: ended - started }),
        step._tag === "Ready" ? step.repairs : undefined,
      );
      const cache =
        outcome._tag === "Succeeded" || outcome._tag === "Failed" || outcome._tag === "FellBack"
          ? outcome.cache
          : undefined;
      pipeline.metrics.record(
        envelope.status,
        envelope.error?.kind,
        envelope.metadata.durationMs,
        cache,
        ended,
      );
      return envelope;
    };
    if (step._tag === "Refused") return finish(step, "");
    if (step._tag === "Confirm") {
      return confirmationOutcome(
        reg,
        step.value,
        step.issued,
        step.invalidToken,
        callOptions,
        world,
        callId,
      ).then((outcome) => finish(outcome, ""));
    }
    const { cacheId } = step;
    if (!pipeline.traced) {
      const hit = pipeline.cache?.get(cacheId);
      if (hit) return finish({ _tag: "Succeeded", executed: hit, cache: "hit" }, cacheId);
    }
    const state = new CallState(step.value, callOptions, session, callId, cacheId, started);
    const stoppedOutcome = (): Outcome => ({
      _tag: "Failed",
      failure: stopped(reg, callOptions),
      attempts: state.attempts,
      cache: undefined,
    });
    const signal = callOptions.signal;
    const program = pipeline.traced
      ? Effect.withSpan(pipeline.run(state), "quiver.tool.call", {
          attributes: { "quiver.tool": reg.name, "quiver.plugin": reg.pluginId, "quiver.call_id": callId },
          captureStackTrace: false,
        })
      : pipeline.run(state);
    const fiber = Effect.runForkWith(context)(program, signal ? { signal } : undefined);
    const answer = (exit: Exit.Exit<Outcome>) =>
      Exit.isSuccess(exit) ? finish(exit.value, cacheId) : finish(stoppedOutcome(), cacheId);
    const done = fiber.pollUnsafe();
    if (done) return answer(done);
    inflight.add(fiber);
    return new Promise<ToolResult>((resolve) => {
      fiber.addObserver((exit) => {
        inflight.delete(fiber);
        resolve(answer(exit));
      });
    });
  };

  /** Why a call's fiber ended without an outcome: the caller's abort, the catalog closing, or a defect. */
  const stopped = (reg: RegisteredTool, callOptions: CallOptions): ToolFailure => {
    if (callOptions.signal?.aborted) {
      // A reason given with the abort says who stopped the call ("The host is shutting down.").
      const reason = callOptions.signal.reason;
      const why =
        reason instanceof Error && reason.name !== "AbortError" && reason.message
          ? reason.message
          : undefined;
      return fail.unavailable(
        why
          ? `${reg.name} was cancelled before it finished: ${why}`
          : `${reg.name} was cancelled by the caller before it finished.`,
        { retryable: true },
      );
    }
    if (stopping) {
      return fail.unavailable(`${reg.name} was stopped because the host is shutting down.`, {
        retryable: true,
      });
    }
    return fail.internal(`${reg.name} could not be run by the runtime.`);
  };

  /** The envelope of a call that never reached its pipeline; counted in the metrics when it can be. */
  const refuse = (
    reg: RegisteredTool,
    callOptions: CallOptions,
    started: number,
    context?: Context.Context<never>,
  ): ToolResult => {
    const ended = clock.monotonic();
    const envelope = toEnvelope(
      reg,
      { _tag: "Refused", failure: stopped(reg, callOptions) },
      { escalate: false, stale: undefined },
      { callId: "", durationMs: ended - started },
    );
    if (context) {
      try {
        pipelineOf(reg, context).metrics.record(
          envelope.status,
          envelope.error?.kind,
          envelope.metadata.durationMs,
          undefined,
          ended,
        );
      } catch {
        /* the pipeline itself could not be built: nothing to count with */
      }
    }
    return envelope;
  };

  const call = (name: string, input: unknown, callOptions: CallOptions = {}): Promise<ToolResult> => {
    const reg = registry.lookup(name);
    if (!reg) return Promise.resolve(unknownTool(name, registry.names()));
    // The call's one reading of the clock before it runs: its duration and its policies' "now".
    const started = clock.monotonic();
    const context = runtime.cachedContext as Context.Context<never> | undefined;
    if (stopping) return Promise.resolve(refuse(reg, callOptions, started, context));
    try {
      if (context) return Promise.resolve(start(context, reg, input, callOptions, started));
    } catch {
      return Promise.resolve(refuse(reg, callOptions, started, context));
    }
    // The runtime's layer is still being built (the first call).
    return runtime
      .context()
      .then((built) => start(built as Context.Context<never>, reg, input, callOptions, started))
      .catch(() =>
        refuse(reg, callOptions, started, runtime.cachedContext as Context.Context<never> | undefined),
      );
  };

  return {
    call,
    stop: async () => {
      stopping = true;
      await Effect.runPromise(Fiber.interruptAll([...inflight]));
    },
  };
};

/** The envelope with the input repairs the runtime made, if any, in its metadata. */
const withRepairs = (envelope: ToolResult, repairs: ReadonlyArray<string> | undefined): ToolResult =>
  repairs && repairs.length > 0
    ? { ...envelope, metadata: { ...envelope.metadata, repairs: [...repairs] } }
    : envelope;

/** The envelope for a name no tool has, with the closest names. */
const unknownTool = (name: string, names: ReadonlyArray<string>): ToolResult => {
  const close = closestMatches(names, name, { limit: 3 });
  const failure = fail.invalidInput(`There is no tool named "${name}".`, {
    suggestion:
      close.length > 0
        ? `Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`
        : "No tools are registered.",
  });
  return {
    status: "error",
    message: failure.message,
    error: { kind: "invalid_input", message: failure.message, retryable: false },
    ...(failure.suggestion ? { suggestion: failure.suggestion } : {}),
    metadata: {
      tool: name,
      plugin: "",
      callId: "",
      durationMs: 0,
      attempts: 0,
      cached: false,
      truncated: false,
    },
  };
};
