import { randomUUID } from "node:crypto";
import { Cache, Cause, Effect, Exit, Redacted } from "effect";
import type { RateLimiter } from "effect/persistence";
import type { ToolContext, ToolProgress } from "../define-tool.js";
import { isOutcome } from "../define-tool.js";
import type { ToolResult } from "../envelope.js";
import { fail, ToolFailure } from "../errors.js";
import type { HttpClient } from "../http/index.js";
import { canonicalJson } from "../internal/canonical-json.js";
import { withBreaker } from "../policies/breaker-policy.js";
import { withRateLimit } from "../policies/rate-limit-policy.js";
import { withRetry } from "../policies/retry-policy.js";
import { withTimeout } from "../policies/timeout-policy.js";
import { parseToolInput } from "../schema/repair.js";
import { CacheKey } from "./cache-key.js";
import type { ConfirmationStore } from "./confirmations.js";
import { buildEnvelope, type Finished } from "./envelope-builder.js";
import { recordCall } from "./metrics.js";
import type { Executed, RegisteredTool } from "./registered-tool.js";
import type { SessionTracker } from "./session-tracker.js";
import type { StaleStore } from "./stale-store.js";

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

const FALLBACK_KINDS: ReadonlySet<string> = new Set(["unavailable", "timeout", "upstream", "rate_limited"]);

/** The input field a destructive tool's confirmation token travels in. */
export const CONFIRMATION_FIELD = "confirmation_token";

/**
 * Runs one call through the whole pipeline and always succeeds with an envelope:
 * validation → confirmation → cache (coalescing) → rate limit → breaker → timeout → retry → run,
 * then fallback, output budget, escalation, metrics and a span.
 */
export const executeTool = (
  reg: RegisteredTool,
  raw: unknown,
  options: CallOptions,
  deps: ExecutorDeps,
): Effect.Effect<ToolResult, never, RateLimiter.RateLimiter> =>
  Effect.suspend(() => {
    const started = performance.now();
    const callId = randomUUID();
    const session = options.session ?? {};
    const principal = session.principal;
    const finish = (f: Omit<Finished, "reg" | "callId" | "durationMs">) =>
      Effect.sync(() =>
        buildEnvelope({ ...f, reg, callId, durationMs: performance.now() - started }, deps, session),
      );

    if (!reg.config.ok) {
      const missing = reg.config.missing;
      return finish({
        failure: fail.unavailable(reg.config.message, {
          retryable: false,
          suggestion:
            missing.length > 0
              ? `Ask the operator to set ${missing.join(", ")} and restart the host.`
              : undefined,
          guidance:
            "This tool is not configured here. Answer from your own knowledge and say the tool was unavailable.",
        } as never),
      });
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
      if (reg.tool.annotations?.destructive && typeof copy[CONFIRMATION_FIELD] === "string") {
        token ??= copy[CONFIRMATION_FIELD] as string;
      }
      delete copy[CONFIRMATION_FIELD];
      for (const [field, key] of Object.entries(reg.tool.inject ?? {})) {
        const value = key === "principal" ? principal : session.values?.[key as string];
        if (value !== undefined) copy[field] = value;
        else if (key === "principal") delete copy[field];
      }
      input = copy;
    }
    const parsed = parseToolInput(reg.tool.input, input);
    if (!parsed.ok) {
      return finish({
        failure: fail.invalidInput(parsed.message, { suggestion: parsed.suggestion }),
      });
    }
    const value = parsed.value as Record<string, unknown>;
    const canonical = canonicalJson(value);

    if (reg.tool.annotations?.destructive) {
      if (!token || !deps.confirmations.consume(token, reg.name, canonical, principal)) {
        const issued = deps.confirmations.issue(reg.name, canonical, principal);
        return Effect.tryPromise({
          try: async () =>
            reg.tool.preview
              ? await reg.tool.preview(
                  value,
                  makeCtx(reg, deps, options, callId, new AbortController().signal, 0, () => {}),
                )
              : value,
          catch: (e) => e,
        }).pipe(
          Effect.orElseSucceed(() => value),
          Effect.flatMap((preview) =>
            finish({
              confirmation: { token: issued.token, expiresAt: issued.expiresAt, preview },
              invalidToken: token !== undefined,
            }),
          ),
        );
      }
    }

    // The execution: rate limit → breaker → timeout → retry → run.
    let attempts = 0;
    let partialData: unknown;
    const attempt = Effect.suspend(() => {
      attempts++;
      const controller = new AbortController();
      const ctx = makeCtx(reg, deps, options, callId, controller.signal, attempts, (d) => {
        partialData = d;
      });
      return runOnce(reg, value, ctx).pipe(Effect.onInterrupt(() => Effect.sync(() => controller.abort())));
    });
    const exec: Effect.Effect<Executed, ToolFailure, RateLimiter.RateLimiter> = attempt.pipe(
      withRetry(reg.policy.retry),
      withTimeout(reg.policy.timeoutMs, reg.name, () => partialData),
      withBreaker(reg.breaker, reg.policy.breaker?.key ?? reg.pluginId, reg.name),
      withRateLimit(reg.policy.rateLimit, principal, reg.name),
      Effect.map((out) => ({ ...out, attempts })),
    );

    const cacheId = `${reg.name}\u0000${principal ?? ""}\u0000${canonical}`;
    let cacheState: "hit" | "miss" | undefined;
    const cached: Effect.Effect<Executed, ToolFailure, RateLimiter.RateLimiter> = reg.cache
      ? Effect.suspend(() => {
          const key = new CacheKey(
            cacheId,
            Effect.suspend(() => exec),
          );
          return Cache.get(reg.cache!, key).pipe(
            Effect.ensuring(
              Effect.sync(() => {
                cacheState = key.ran ? "miss" : "hit";
              }),
            ),
          );
        })
      : exec;

    return cached.pipe(
      Effect.tap((out) =>
        reg.policy.fallback?.stale ? Effect.sync(() => deps.stale.set(cacheId, out.data)) : Effect.void,
      ),
      Effect.exit,
      Effect.flatMap((exit) => {
        if (Exit.isSuccess(exit)) {
          return finish({ executed: exit.value, cached: cacheState === "hit", cache: cacheState });
        }
        const failure = failureFromCause(exit.cause, reg.name);
        const failed = finish({ failure, attempts, cache: cacheState, staleKey: cacheId, input: value });
        const fallbackTool = reg.policy.fallback?.tool;
        if (
          !fallbackTool ||
          options.viaFallback ||
          !FALLBACK_KINDS.has(failure.kind) ||
          !deps.hasTool(fallbackTool)
        ) {
          return failed;
        }
        return Effect.promise(() =>
          deps.callTool(fallbackTool, value, { ...options, viaFallback: true }),
        ).pipe(
          Effect.flatMap((other) =>
            other.status === "success" || other.status === "partial"
              ? Effect.succeed<ToolResult>({
                  ...other,
                  message: `${reg.name} failed (${redactSecrets(failure.message, reg.secrets)}); ${fallbackTool} answered instead. ${other.message}`,
                  metadata: { ...other.metadata, tool: reg.name, plugin: reg.pluginId, fallbackTool },
                })
              : failed,
          ),
        );
      }),
      Effect.tap((envelope) =>
        recordCall({
          tool: reg.name,
          plugin: reg.pluginId,
          status: envelope.status,
          kind: envelope.error?.kind,
          durationMs: envelope.metadata.durationMs,
          cache: cacheState,
        }),
      ),
      Effect.withSpan("quiver.tool.call", {
        attributes: { "quiver.tool": reg.name, "quiver.plugin": reg.pluginId, "quiver.call_id": callId },
      }),
    );
  });

/** Runs the tool once: lifts a plain value, Promise or Effect, validates the output. */
const runOnce = (
  reg: RegisteredTool,
  input: unknown,
  ctx: ToolContext,
): Effect.Effect<Omit<Executed, "attempts">, ToolFailure> =>
  Effect.suspend(() => {
    let result: unknown;
    try {
      result = reg.tool.run(input as never, ctx);
    } catch (error) {
      return Effect.fail(toFailure(error, reg.name));
    }
    const lifted: Effect.Effect<unknown, ToolFailure> = Effect.isEffect(result)
      ? (result as Effect.Effect<unknown, unknown>).pipe(Effect.mapError((e) => toFailure(e, reg.name)))
      : isPromiseLike(result)
        ? Effect.tryPromise({
            try: () => result as PromiseLike<unknown>,
            catch: (e) => toFailure(e, reg.name),
          })
        : Effect.succeed(result);
    return lifted.pipe(
      Effect.catchDefect((defect) => Effect.fail(toFailure(defect, reg.name))),
      Effect.flatMap((out) => {
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
        });
      }),
    );
  });

const isPromiseLike = (u: unknown): u is PromiseLike<unknown> =>
  typeof u === "object" && u !== null && typeof (u as { then?: unknown }).then === "function";

/** Any thrown value as a ToolFailure: a ToolFailure passes through, anything else is `internal`. */
export const toFailure = (error: unknown, tool: string): ToolFailure => {
  if (ToolFailure.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return fail.internal(`${tool} failed unexpectedly: ${message}`, { cause: error, retryable: false });
};

const failureFromCause = (cause: Cause.Cause<ToolFailure>, tool: string): ToolFailure => {
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
  callId: string,
  signal: AbortSignal,
  attempt: number,
  reportPartial: (data: unknown) => void,
): ToolContext => {
  const session = options.session ?? {};
  return {
    callId,
    tool: reg.name,
    plugin: reg.pluginId,
    principal: session.principal,
    sessionId: session.id,
    session: session.values ?? {},
    signal,
    config: reg.config.ok ? reg.config.value : undefined,
    http: deps.http,
    attempt,
    progress: (p) => options.onProgress?.(p),
    reportPartial,
    callTool: (name, input) =>
      deps.callTool(name, input, { session, ...(options.signal ? { signal: options.signal } : {}) }),
    hasTool: deps.hasTool,
  };
};

/** Replaces every secret value in a text with [REDACTED]. */
export const redactSecrets = (text: string, secrets: ReadonlyArray<Redacted.Redacted<string>>): string => {
  let out = text;
  for (const s of secrets) {
    const v = Redacted.value(s);
    if (v.length >= 4) out = out.split(v).join("[REDACTED]");
  }
  return out;
};
