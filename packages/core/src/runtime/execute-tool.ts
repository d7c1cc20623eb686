import { randomUUID } from "node:crypto";
import { Cause, Effect, Redacted } from "effect";
import type { ToolContext, ToolProgress } from "../define-tool.js";
import { isOutcome } from "../define-tool.js";
import type { ToolResult } from "../envelope.js";
import { fail, ToolFailure } from "../errors.js";
import type { HttpClient } from "../http/index.js";
import { canonicalJson } from "../internal/canonical-json.js";
import { parseToolInput } from "../schema/repair.js";
import { CallState } from "./call-state.js";
import type { ConfirmationStore } from "./confirmations.js";
import { buildEnvelope } from "./envelope-builder.js";
import { fillInjected } from "./injected-fields.js";
import type { Executed, RegisteredTool } from "./registered-tool.js";
import type { SessionTracker } from "./session-tracker.js";
import type { StaleStore } from "./stale-store.js";
import type { ToolPipeline } from "./tool-pipeline.js";

/** Who is calling and in which conversation; the host fills it from its transport. */
export interface SessionContext {
  /** The conversation; escalation counts failures per session. */
  readonly id?: string;
  /** The authenticated caller (from a token mapping); part of every cache key. */
  readonly principal?: string;
  /** Values for context-injected parameters (e.g. `{ subject: "metaheuristicas" }`). */
  readonly values?: Readonly<Record<string, unknown>>;
}

/** Per-call options. */
export interface CallOptions {
  readonly session?: SessionContext;
  /** Cancels the call: the run is interrupted and its upstream request aborted. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
  /** The token from a destructive tool's preview (also accepted as input `confirmation_token`). */
  readonly confirmationToken?: string;
  /** Set on the call a fallback makes, so fallbacks never chain. */
  readonly viaFallback?: boolean;
}

/** What the executor needs from the catalog. */
export interface ExecutorDeps {
  readonly http: HttpClient;
  readonly confirmations: ConfirmationStore;
  readonly sessions: SessionTracker;
  readonly stale: StaleStore;
  readonly callTool: (name: string, input: unknown, options: CallOptions) => Promise<ToolResult>;
  readonly hasTool: (name: string) => boolean;
}

/** The input field a destructive tool's confirmation token travels in. */
export const CONFIRMATION_FIELD = "confirmation_token";

const NO_SESSION: SessionContext = Object.freeze({});

/**
 * The synchronous start of a call: configuration check, input preparation (stringified JSON,
 * injected session values, the confirmation token), validation and the confirmation of destructive
 * tools. Answers with the envelope when the call ends here (unconfigured, invalid input), with an
 * Effect for a confirmation preview, or with the state the tool's pipeline then runs with:
 * validation → confirmation → cache (coalescing) → rate limit → breaker → timeout → retry → run,
 * then fallback, output budget, escalation, metrics and a span (see `buildPipeline`).
 */
export const prepareCall = (
  reg: RegisteredTool,
  pipeline: ToolPipeline,
  raw: unknown,
  options: CallOptions,
  deps: ExecutorDeps,
  started: number,
): ToolResult | Effect.Effect<ToolResult> | CallState => {
  const callId = randomUUID();
  const session = options.session ?? NO_SESSION;
  const principal = session.principal;

  if (!reg.config.ok) {
    const missing = reg.config.missing;
    return buildEnvelope(
      {
        reg,
        callId,
        durationMs: performance.now() - started,
        failure: fail.unavailable(reg.config.message, {
          retryable: false,
          suggestion:
            missing.length > 0
              ? `Ask the operator to set ${missing.join(", ")} and restart the host.`
              : undefined,
          guidance:
            "This tool is not configured here. Answer from your own knowledge and say the tool was unavailable.",
        } as never),
      },
      deps,
      session,
    );
  }

  // Inputs: parse a stringified object, inject session values, take out the confirmation token.
  let input: unknown = raw;
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch {
      /* left to validation, which names the problem */
    }
  }
  let token = options.confirmationToken;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    if (pipeline.destructive && typeof copy[CONFIRMATION_FIELD] === "string") {
      token ??= copy[CONFIRMATION_FIELD] as string;
    }
    delete copy[CONFIRMATION_FIELD];
    fillInjected(copy, pipeline.inject, principal, session.values);
    input = copy;
  }
  const parsed = parseToolInput(reg.tool.input, input);
  if (!parsed.ok) {
    return buildEnvelope(
      {
        reg,
        callId,
        durationMs: performance.now() - started,
        failure: fail.invalidInput(parsed.message, { suggestion: parsed.suggestion }),
      },
      deps,
      session,
    );
  }
  const value = parsed.value as Record<string, unknown>;
  // The canonical input is only needed for a cache key, a stale-fallback key or a confirmation.
  const canonical = pipeline.needsCanonical ? canonicalJson(value) : "";

  if (pipeline.destructive) {
    if (!token || !deps.confirmations.consume(token, reg.name, canonical, principal)) {
      const issued = deps.confirmations.issue(reg.name, canonical, principal);
      const ctx = makeCtx(reg, deps, options, session, callId, new AbortController().signal, 0, () => {});
      return Effect.tryPromise({
        try: async () => (reg.tool.preview ? await reg.tool.preview(value, ctx) : value),
        catch: (e) => e,
      }).pipe(
        Effect.orElseSucceed(() => value),
        Effect.map((preview) =>
          buildEnvelope(
            {
              reg,
              callId,
              durationMs: performance.now() - started,
              confirmation: { token: issued.token, expiresAt: issued.expiresAt, preview },
              invalidToken: token !== undefined,
            },
            deps,
            session,
          ),
        ),
      );
    }
  }

  const cacheId = pipeline.needsCacheId ? `${reg.name}\u0000${principal ?? ""}\u0000${canonical}` : "";
  return new CallState(value, options, session, callId, started, cacheId);
};

/**
 * One attempt: calls `run` and lifts a plain value, Promise or Effect, then validates the output.
 * An interrupted attempt (timeout, cancellation, shutdown) aborts `ctx.signal`.
 */
export const runAttempt = (
  reg: RegisteredTool,
  s: CallState,
  deps: ExecutorDeps,
): Effect.Effect<Executed, ToolFailure> => {
  if (!reg.resources.isReady) return Effect.flatMap(openResources(reg), () => runAttempt(reg, s, deps));
  const attempt = ++s.attempts;
  const abort = new AbortController();
  const ctx = makeCtx(reg, deps, s.options, s.session, s.callId, abort.signal, attempt, (d) => {
    s.partialData = d;
  });
  let result: unknown;
  try {
    // Record/replay hook (issue 15): a cassette HttpClient learns which call its requests belong to.
    const run = () => reg.tool.run(s.input as never, ctx);
    const { principal } = s.session;
    result = deps.http.withToolCall
      ? deps.http.withToolCall(
          {
            tool: reg.name,
            plugin: reg.pluginId,
            callId: s.callId,
            input: s.input,
            principal,
            secrets: reg.secrets,
          },
          run,
        )
      : run();
  } catch (error) {
    return Effect.fail(toFailure(error, reg.name));
  }
  if (isPromiseLike(result)) {
    const promise = result;
    return Effect.callback<Executed, ToolFailure>((resume) => {
      promise.then(
        (out) => {
          let checked: Effect.Effect<Executed, ToolFailure>;
          try {
            checked = validateOutput(reg, out, attempt);
          } catch (defect) {
            checked = Effect.die(defect);
          }
          resume(checked);
        },
        (error) => resume(Effect.fail(toFailure(error, reg.name))),
      );
      // Runs if the fiber is interrupted while the promise is pending.
      return Effect.sync(() => abort.abort());
    });
  }
  if (Effect.isEffect(result)) {
    return (result as Effect.Effect<unknown, unknown>).pipe(
      Effect.mapError((e) => toFailure(e, reg.name)),
      Effect.catchDefect((defect) => Effect.fail(toFailure(defect, reg.name))),
      Effect.flatMap((out) => validateOutput(reg, out, attempt)),
      Effect.onInterrupt(() => Effect.sync(() => abort.abort())),
    );
  }
  return validateOutput(reg, result, attempt);
};

/** Waits for the plugin's `setup`; a failed setup is `unavailable` (retryable: the next call tries again). */
const openResources = (reg: RegisteredTool): Effect.Effect<void, ToolFailure> =>
  Effect.callback<void, ToolFailure>((resume) => {
    reg.resources.open().then(
      () => resume(Effect.void),
      (error: unknown) =>
        resume(
          Effect.fail(
            ToolFailure.isInstance(error)
              ? error
              : fail.unavailable(
                  `The ${reg.pluginId} plugin could not start: ${error instanceof Error ? error.message : String(error)}`,
                  { retryable: true, cause: error },
                ),
          ),
        ),
    );
  });

/** Checks run output against the tool's output schema. */
const validateOutput = (
  reg: RegisteredTool,
  out: unknown,
  attempts: number,
): Effect.Effect<Executed, ToolFailure> => {
  const info = isOutcome(out) ? out : undefined;
  const data = info ? info.data : out;
  const checked = reg.tool.output.safeParse(data);
  if (!checked.success) {
    const first = checked.error.issues[0];
    return Effect.fail(
      fail.internal(
        `${reg.name} returned output that does not match its schema (${first ? `${first.path.join(".") || "output"}: ${first.message}` : "invalid"}). This is a bug in the tool.`,
      ),
    );
  }
  return Effect.succeed({
    data: checked.data,
    partial: info?.partial ?? false,
    message: info?.message,
    instruction: info?.instruction,
    source: info?.source,
    metadata: info?.metadata,
    attempts,
  });
};

const isPromiseLike = (u: unknown): u is PromiseLike<unknown> =>
  typeof u === "object" && u !== null && typeof (u as { then?: unknown }).then === "function";

/** Any thrown value as a ToolFailure: a ToolFailure passes through, anything else is `internal`. */
export const toFailure = (error: unknown, tool: string): ToolFailure => {
  if (ToolFailure.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return fail.internal(`${tool} failed unexpectedly: ${message}`, { cause: error, retryable: false });
};

/** The failure an unsuccessful run ended with: its error, its defect, or a cancellation. */
export const failureFromCause = (cause: Cause.Cause<ToolFailure>, tool: string): ToolFailure => {
  const failure = Cause.findErrorOption(cause);
  if (failure._tag === "Some") return failure.value;
  const defect = Cause.findDefect(cause);
  if (defect._tag === "Success") return toFailure(defect.success, tool);
  return fail.unavailable(`${tool} was cancelled before it finished.`, { retryable: true });
};

const makeCtx = (
  reg: RegisteredTool,
  deps: ExecutorDeps,
  options: CallOptions,
  session: SessionContext,
  callId: string,
  signal: AbortSignal,
  attempt: number,
  reportPartial: (data: unknown) => void,
): ToolContext => ({
  callId,
  tool: reg.name,
  plugin: reg.pluginId,
  principal: session.principal,
  sessionId: session.id,
  session: session.values ?? {},
  signal,
  config: reg.config.ok ? reg.config.value : undefined,
  resources: reg.resources.current,
  http: deps.http,
  attempt,
  progress: (p) => options.onProgress?.(p),
  reportPartial,
  callTool: (name, input) =>
    deps.callTool(name, input, { session, ...(options.signal ? { signal: options.signal } : {}) }),
  hasTool: deps.hasTool,
});

/** Replaces every secret value in a text with [REDACTED]. */
export const redactSecrets = (text: string, secrets: ReadonlyArray<Redacted.Redacted<string>>): string => {
  let out = text;
  for (const s of secrets) {
    const v = Redacted.value(s);
    if (v.length >= 4) out = out.split(v).join("[REDACTED]");
  }
  return out;
};
