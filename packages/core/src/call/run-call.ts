import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import type * as ManagedRuntime from "effect/ManagedRuntime";
import type { CatalogOptions } from "../catalog/catalog-types.js";
import type { Registry } from "../catalog/registry.js";
import type { ToolResult } from "../envelope.js";
import type { ToolFailure } from "../errors.js";
import { retryAfter } from "../policies/retry-policy.js";
import { timedOut } from "../policies/timeout-policy.js";
import { CallTrace } from "../runtime/call-trace.js";
import type { CallOptions, SessionContext } from "../runtime/call-types.js";
import type { ConfirmationStore } from "../runtime/confirmations.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { readInput } from "./call-input.js";
import { NOTHING_RECALLED, rememberFailure, rememberSuccess } from "./call-memory.js";
import { fallbackAnswer } from "./fallback-tool.js";
import { spillArtifacts } from "./result-resources.js";
import { type AttemptState, type ContextServices, previewOf, type RunOutput, runTool } from "./run-tool.js";
import {
  failureOf,
  joinedRunStopped,
  missingScopesFailure,
  stoppedFailure,
  unknownTool,
} from "./runtime-failures.js";
import { confirmationEnvelope, failureEnvelope, fallbackEnvelope, successEnvelope } from "./to-envelope.js";
import { buildSteps, type StepSources, type ToolSteps } from "./tool-steps.js";

/** What calls are run with. */
export interface CallRunnerOptions {
  readonly registry: Registry;
  readonly runtime: ManagedRuntime.ManagedRuntime<never, never>;
  /** What a tool's context hands on: the HTTP client, the clock, the other tools. */
  readonly services: ContextServices;
  readonly confirmations: ConfirmationStore;
  /** What each tool's steps are built from; its clock and store (failure counts, last good results) serve every call. */
  readonly sources: StepSources;
  /** Record the caller's principal on the call's span (`quiver.principal`). */
  readonly tracePrincipal: boolean;
  /** The scopes a tool needs; see `CatalogOptions.requiredScopes`. */
  readonly requiredScopes: CatalogOptions["requiredScopes"] | undefined;
}

const NO_SESSION: SessionContext = Object.freeze({});
/**
 * The call, in one function (`call` below), step by step: input → cache → rate limit → breaker →
 * timeout → retry → run → memory → envelope (with its output budget) → metrics. Each step is a
 * small module it names; the steps between the cache and the run are one Effect, run in a fiber of
 * the call's own: the one boundary into Effect and out of it. The tool's `run`, a Promise or an
 * Effect, is lifted into it once (`runTool`).
 */
export const createCallRunner = (options: CallRunnerOptions) => {
  const { registry, runtime, services, confirmations } = options;
  const { clock, store } = options.sources;
  const inflight = new Set<Fiber.Fiber<RunOutput, ToolFailure>>();
  const catalog = { stopping: false };
  const built = new WeakMap<RegisteredTool, ToolSteps>();
  const stepsOf = (reg: RegisteredTool, context: Context.Context<never>): ToolSteps | Promise<ToolSteps> =>
    built.get(reg) ??
    buildSteps(reg, context, options.sources).then((s) => built.get(reg) ?? built.set(reg, s).get(reg)!);

  const call = async (name: string, raw: unknown, callOptions: CallOptions = {}): Promise<ToolResult> => {
    const reg = registry.named.get(name);
    if (!reg) return unknownTool(name, registry.names());
    // The call's one reading of the clock before it runs: its duration and its cache entry's age.
    const started = clock.monotonic();
    const session = callOptions.session ?? NO_SESSION;
    let context: Context.Context<never>;
    let steps: ToolSteps;
    try {
      context = (runtime.cachedContext ?? (await runtime.context())) as Context.Context<never>;
      const made = stepsOf(reg, context);
      steps = made instanceof Promise ? await made : made;
    } catch {
      const facts = { callId: "", durationMs: clock.monotonic() - started, attempts: 0, cached: false };
      return failureEnvelope(reg, stoppedFailure(reg, callOptions, catalog), NOTHING_RECALLED, facts);
    }
    let callId = "";
    let trace: CallTrace | undefined;
    let ended = started;
    /** The facts of the call for its envelope, read as it ends. */
    const facts = (attempts: number, cached: boolean, repairs?: ReadonlyArray<string>) => {
      ended = clock.monotonic();
      return { callId, durationMs: ended - started, attempts, cached, repairs };
    };
    /** The last step: the envelope counted in the tool's metrics, and its spans ended. */
    const answer = (envelope: ToolResult, cache?: "hit" | "miss"): ToolResult => {
      const { status, error, metadata } = envelope;
      steps.metrics.record(status, error?.kind, metadata.durationMs, cache, ended);
      trace?.end(envelope);
      return envelope;
    };

    // Refused before anything runs: the catalog is closing, or the caller's token lacks a scope.
    const missing = missingScopes(options.requiredScopes, { name: reg.name, plugin: reg.pluginId }, session);
    if (catalog.stopping || missing.length > 0) {
      const failure = catalog.stopping
        ? stoppedFailure(reg, callOptions, catalog)
        : missingScopesFailure(reg, missing);
      return answer(failureEnvelope(reg, failure, NOTHING_RECALLED, facts(0, false)));
    }
    callId = nextCallId();
    if (steps.spans)
      trace = new CallTrace(steps.spans, reg, callId, callOptions, session, options.tracePrincipal);
    const key = { principal: session.principal, sessionId: session.id, cacheId: "" };

    // 1. Input: configuration, validation (repairs only for an invalid input), confirmation.
    let read: Awaited<ReturnType<typeof readInput>>;
    try {
      const pending = readInput(reg, raw, callOptions, confirmations);
      read = pending instanceof Promise ? await pending : pending;
    } catch {
      read = { _tag: "Refused", failure: stoppedFailure(reg, callOptions, catalog) };
    }
    if (read._tag === "Refused") {
      const recalled = await rememberFailure(reg, key, read.failure, store, clock.now);
      return answer(failureEnvelope(reg, read.failure, recalled, facts(0, false)));
    }
    if (read._tag === "Confirm") {
      const preview = await previewOf(reg, read.value, callOptions, services, callId);
      return answer(confirmationEnvelope(reg, { ...read.issued, preview }, read, facts(0, false)));
    }
    const { cacheId, repairs } = read;
    const state: AttemptState = {
      reg,
      input: read.value,
      options: callOptions,
      session,
      callId,
      trace,
      attempts: 0,
      partialData: undefined,
    };

    // 2. Cache, around 3–7: rate limit → breaker → timeout → retry → run, one Effect in one fiber.
    const run = () => runInFiber(context, policies(steps, state), callOptions.signal);
    const through = steps.cache
      ? steps.cache.through(cacheId, started, run, callOptions.signal)
      : run().then((exit) => ({ exit, cache: undefined }));
    const { exit, cache } = through instanceof Promise ? await through : through;
    const cached = cache === "hit";
    const attempts = cached ? 0 : state.attempts;
    const callKey = { ...key, cacheId };

    // 8. Memory, 9. envelope (within the output budget), 10. metrics (`answer`).
    if (Exit.isSuccess(exit)) {
      // A hit ran nothing: it neither resets a failure count nor is a newer good result.
      if (!cached) rememberSuccess(reg, callKey, exit.value.data, store, clock.now());
      // An answer with media: artifacts over the output budget go to the store, linked (`spillArtifacts`).
      const output = exit.value.metadata?.content
        ? await spillArtifacts(reg, exit.value, session, store, options.sources.resultTtlMs)
        : exit.value;
      return answer(successEnvelope(reg, output, facts(attempts, cached, repairs)), cache);
    }
    // Interrupted: this call's own caller aborted, or else the run it joined was stopped.
    const joinedStopped = cached && !callOptions.signal?.aborted;
    let failure =
      failureOf(exit.cause, reg.name) ??
      (joinedStopped
        ? joinedRunStopped(reg.name)
        : stoppedFailure(reg, callOptions, catalog, state.partialData));
    const fallback = await fallbackAnswer(reg, failure, state, { call, has: (n) => !!registry.lookup(n) });
    if (fallback && (fallback.answer.status === "success" || fallback.answer.status === "partial"))
      return answer(fallbackEnvelope(reg, failure, fallback.tool, fallback.answer), cache);
    // Cancelled while its fallback ran: the call was stopped before it finished.
    if (fallback && callOptions.signal?.aborted)
      failure = stoppedFailure(reg, callOptions, catalog, state.partialData);
    const recalled = await rememberFailure(reg, callKey, failure, store, clock.now);
    return answer(failureEnvelope(reg, failure, recalled, facts(attempts, cached, repairs)), cache);
  };

  /** Steps 3–7, outside in: rate limit → breaker → timeout → retry → run (each wraps the next). */
  const policies = (steps: ToolSteps, state: AttemptState): Effect.Effect<RunOutput, ToolFailure> => {
    const { reg, trace } = state;
    const { policy } = reg;
    // Traced, each attempt runs in a span of its own, which its upstream requests find.
    const run = Effect.suspend(() =>
      trace
        ? trace.attempt(state.attempts + 1, (span) => runTool(state, services, span))
        : runTool(state, services),
    );
    const retry = steps.retry;
    const retried = retry ? Effect.catch(run, (first) => retryAfter(retry, first, run)) : run;
    // The call's own limit, bounded by the tool's.
    const limitMs = Math.min(state.options.timeoutMs ?? Number.POSITIVE_INFINITY, policy.timeoutMs);
    const timed = Number.isFinite(limitMs)
      ? Effect.timeoutOrElse(retried, {
          duration: limitMs,
          orElse: () => Effect.fail(timedOut(reg.name, limitMs, state.partialData)),
        })
      : retried;
    const guarded = steps.breaker ? steps.breaker.guard(timed, reg.name) : timed;
    const limits =
      steps.rateLimit && (steps.rateLimit.shared ?? steps.rateLimit.forCaller?.(state.session.principal));
    return limits ? Effect.andThen(limits, guarded) : guarded;
  };

  /** The one boundary into Effect and back: the call's fiber (which `stop` interrupts), as a promise of its exit. */
  const runInFiber = (
    context: Context.Context<never>,
    program: Effect.Effect<RunOutput, ToolFailure>,
    signal: AbortSignal | undefined,
  ): Promise<Exit.Exit<RunOutput, ToolFailure>> => {
    const fiber = Effect.runForkWith(context)(program, signal ? { signal } : undefined);
    inflight.add(fiber);
    return new Promise((resolve) => {
      fiber.addObserver((exit) => {
        inflight.delete(fiber);
        resolve(exit);
      });
    });
  };

  return {
    /** Calls a tool; always resolves with an envelope, never rejects. */
    call,
    /** A tool's steps (built now if it has not been called yet), for `stats()`. */
    stepsOf: async (reg: RegisteredTool) => stepsOf(reg, (await runtime.context()) as Context.Context<never>),
    /** Interrupts every call in flight (each resolves with `unavailable`); later calls are refused. */
    stop: async () => {
      catalog.stopping = true;
      await Effect.runPromise(Fiber.interruptAll([...inflight]));
    },
  };
};

/** The scopes the caller's token lacks for a tool or slot (none when its session is not scope-limited). */
export const missingScopes = (
  required: CatalogOptions["requiredScopes"] | undefined,
  target: { readonly name: string; readonly plugin: string },
  session: SessionContext,
): ReadonlyArray<string> => {
  const scopes = session.scopes;
  return scopes === undefined || !required ? [] : required(target).filter((s) => !scopes.includes(s));
};

const PROCESS = crypto.randomUUID().slice(0, 13);
let sequence = 0;

/** A call's id: a counter after a random prefix drawn once per process (nothing needs it unguessable). */
const nextCallId = (): string => `${PROCESS}-${(++sequence).toString(36).padStart(6, "0")}`;
