import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import type * as ManagedRuntime from "effect/ManagedRuntime";
import type { ToolResult } from "../envelope.js";
import { type CallMemory, type Settled, settle } from "../runtime/after-call.js";
import { nextCallId } from "../runtime/call-id.js";
import { type InputStep, prepareInput } from "../runtime/call-input.js";
import type { ToolPipeline } from "../runtime/call-pipeline.js";
import { CallState } from "../runtime/call-state.js";
import { CallTrace } from "../runtime/call-trace.js";
import type { CallOptions, Outcome, SessionContext } from "../runtime/call-types.js";
import { confirmationOutcome } from "../runtime/confirmation-preview.js";
import type { ConfirmationStore } from "../runtime/confirmations.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { toEnvelope } from "../runtime/to-envelope.js";
import { missingScopesFailure, stoppedFailure, unknownTool, withRepairs } from "./call-answers.js";
import type { CatalogOptions } from "./catalog-types.js";
import type { Registry } from "./registry.js";
import { type PipelineSources, toolPipelines } from "./tool-pipelines.js";

/** What dispatch runs calls with. */
export interface DispatchOptions extends PipelineSources {
  readonly registry: Registry;
  readonly runtime: ManagedRuntime.ManagedRuntime<never, never>;
  readonly memory: CallMemory;
  readonly confirmations: ConfirmationStore;
  /** Record the caller's principal on the call's span (`quiver.principal`). Default false. */
  readonly tracePrincipal?: boolean | undefined;
  /** The scopes a tool needs; see `CatalogOptions.requiredScopes`. */
  readonly requiredScopes?: CatalogOptions["requiredScopes"] | undefined;
}

/** Calls tools by name, and stops the calls in flight. */
export interface Dispatch {
  /** Calls a tool; always resolves with an envelope, never rejects. */
  call(name: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
  /** Interrupts every call in flight (each resolves with `unavailable`); later calls are refused. */
  stop(): Promise<void>;
}

const NO_SESSION: SessionContext = Object.freeze({});

/** What a call's envelope is made with, besides its outcome. */
interface CallFrame {
  readonly reg: RegisteredTool;
  readonly pipeline: ToolPipeline;
  readonly session: SessionContext;
  readonly callId: string;
  readonly started: number;
  readonly repairs: ReadonlyArray<string> | undefined;
  /** The call's spans, when a tracer is installed. */
  readonly trace: CallTrace | undefined;
}

/**
 * A call in four steps, each in its own module: the input step (`prepareInput`: configuration,
 * validation, repair, confirmation), the tool's pipeline (`buildPipeline`: cache, rate limit,
 * breaker, timeout, retry, attempt, fallback) ending in an `Outcome`, the memory step (`settle`:
 * escalation and stale results), and `toEnvelope`. A local cache hit is answered without starting a
 * fiber; every other call runs the pipeline's Effect in a fiber of its own.
 */
export const createDispatch = (options: DispatchOptions): Dispatch => {
  const { registry, runtime, world, clock, memory, confirmations } = options;
  // Calls run as fibers on the runtime's context directly (not through `runtime.runPromiseExit`, which
  // also ties each fiber into the runtime's scope); `stop` interrupts the ones in flight.
  const inflight = new Set<Fiber.Fiber<Outcome>>();
  let stopping = false;
  const pipelineOf = toolPipelines(options);
  const traceSettings = { principal: options.tracePrincipal ?? false };

  /** The memory step, then the envelope, counted in the tool's metrics. */
  const finish = (frame: CallFrame, outcome: Outcome, cacheId: string): ToolResult | Promise<ToolResult> => {
    const { reg, session } = frame;
    const key = { principal: session.principal, sessionId: session.id, cacheId };
    const settled = settle(reg, outcome, key, memory);
    return settled instanceof Promise
      ? settled.then((s) => envelopeOf(frame, outcome, s))
      : envelopeOf(frame, outcome, settled);
  };
  const envelopeOf = (frame: CallFrame, outcome: Outcome, settled: Settled): ToolResult => {
    const ended = clock.monotonic();
    const envelope = withRepairs(
      toEnvelope(frame.reg, outcome, settled, { callId: frame.callId, durationMs: ended - frame.started }),
      frame.repairs,
    );
    const cache =
      outcome._tag === "Succeeded" || outcome._tag === "Failed" || outcome._tag === "FellBack"
        ? outcome.cache
        : undefined;
    const { status, error, metadata } = envelope;
    frame.pipeline.metrics.record(status, error?.kind, metadata.durationMs, cache, ended);
    frame.trace?.end(envelope);
    return envelope;
  };

  /** Runs a call's Effect in a fiber of its own (`stop` interrupts it): its exit, at once if it has one. */
  const runFiber = (
    context: Context.Context<never>,
    program: Effect.Effect<Outcome>,
    signal: AbortSignal | undefined,
  ): Exit.Exit<Outcome> | Promise<Exit.Exit<Outcome>> => {
    const fiber = Effect.runForkWith(context)(program, signal ? { signal } : undefined);
    const done = fiber.pollUnsafe();
    if (done) return done;
    inflight.add(fiber);
    return new Promise((resolve) => {
      fiber.addObserver((exit) => {
        inflight.delete(fiber);
        resolve(exit);
      });
    });
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

  /** The call after its input step: the pipeline (or the confirmation), then `finish`. */
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
    const repairs = step._tag === "Ready" ? step.repairs : undefined;
    const trace = pipeline.spans
      ? new CallTrace(pipeline.spans, reg, callId, callOptions, session, traceSettings)
      : undefined;
    const frame: CallFrame = { reg, pipeline, session, callId, started, repairs, trace };
    if (step._tag === "Refused") return finish(frame, step, "");
    if (step._tag === "Confirm") {
      const { value, issued, invalidToken } = step;
      return confirmationOutcome(reg, value, issued, invalidToken, callOptions, world, callId).then(
        (outcome) => finish(frame, outcome, ""),
      );
    }
    const { cacheId } = step;
    const hit = pipeline.traced ? undefined : pipeline.cache?.get(cacheId);
    if (hit) return finish(frame, { _tag: "Succeeded", executed: hit, cache: "hit" }, cacheId);
    const state = new CallState(step.value, callOptions, session, callId, cacheId, started, trace);
    const answer = (exit: Exit.Exit<Outcome>) =>
      finish(
        frame,
        Exit.isSuccess(exit)
          ? exit.value
          : {
              _tag: "Failed",
              failure: stoppedFailure(reg, callOptions, stopping),
              attempts: state.attempts,
              cache: undefined,
            },
        cacheId,
      );
    // Traced, the spans are made by hand (`CallTrace`), not set as the fiber's parent span: the
    // policies make none, and a parent span in the fiber's context slows every call's fiber.
    const exit = runFiber(context, pipeline.run(state), callOptions.signal);
    return exit instanceof Promise ? exit.then(answer) : answer(exit);
  };

  /** The envelope of a call that never reached its pipeline; counted in the metrics when it can be. */
  const refuse = (
    reg: RegisteredTool,
    callOptions: CallOptions,
    started: number,
    context?: Context.Context<never>,
    failure = stoppedFailure(reg, callOptions, stopping),
  ): ToolResult => {
    const ended = clock.monotonic();
    const envelope = toEnvelope(
      reg,
      { _tag: "Refused", failure },
      { escalate: false, stale: undefined },
      { callId: "", durationMs: ended - started },
    );
    if (context) {
      try {
        const { status, error, metadata } = envelope;
        pipelineOf(reg, context).metrics.record(status, error?.kind, metadata.durationMs, undefined, ended);
      } catch {
        /* the pipeline itself could not be built: nothing to count with */
      }
    }
    return envelope;
  };

  const call = (name: string, input: unknown, callOptions: CallOptions = {}): Promise<ToolResult> => {
    const reg = registry.lookup(name);
    if (!reg) return Promise.resolve(unknownTool(name, registry.names()));
    // The call's one reading of the clock before it runs: its duration and its cache entry's age.
    const started = clock.monotonic();
    const context = runtime.cachedContext as Context.Context<never> | undefined;
    if (stopping) return Promise.resolve(refuse(reg, callOptions, started, context));
    const scopes = callOptions.session?.scopes;
    if (scopes !== undefined && options.requiredScopes) {
      const missing = options
        .requiredScopes({ name: reg.name, plugin: reg.pluginId })
        .filter((scope) => !scopes.includes(scope));
      if (missing.length > 0)
        return Promise.resolve(
          refuse(reg, callOptions, started, context, missingScopesFailure(reg, missing)),
        );
    }
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
