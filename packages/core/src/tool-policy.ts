import type { DurationInput } from "./duration.js";

/** Retry policy: exponential backoff with jitter, for retryable failures of idempotent tools only. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly times?: number;
  /** First backoff delay (default 200ms); doubles each retry. */
  readonly base?: DurationInput;
  /** Upper bound on the total time spent retrying (default: the timeout). */
  readonly maxElapsed?: DurationInput;
}

/** Cache policy: successful results kept for `ttl`; identical concurrent calls share one execution. */
export interface CachePolicy {
  readonly ttl: DurationInput;
  /** Entries kept per tool (default 1,000). */
  readonly capacity?: number;
}

/** Rate limit policy (effect/persistence RateLimiter). */
export interface RateLimitPolicy {
  /** Tools sharing a key share the limit (default: the plugin id). */
  readonly key?: string;
  readonly limit: number;
  readonly window: DurationInput;
  /** Count each principal separately (default false: one budget for the upstream key). */
  readonly perPrincipal?: boolean;
  /** "fail" answers rate_limited at once with retryAfterMs (default); "delay" waits for a slot. */
  readonly onExceeded?: "fail" | "delay";
}

/** Circuit breaker policy (effect/persistence CircuitBreaker). */
export interface BreakerPolicy {
  /** Tools sharing a key share the circuit (default: the plugin id). */
  readonly key?: string;
  /** Consecutive upstream failures that open the circuit (default 5). */
  readonly failures?: number;
  /** How long the circuit stays open before a probe (default 30s). */
  readonly openFor?: DurationInput;
}

/** What to do when the tool still fails after retries. */
export interface FallbackPolicy {
  /** Call this tool (same input) instead. */
  readonly tool?: string;
  /** Serve the last successful result for the same input and caller, marked stale. */
  readonly stale?: boolean;
  /** Guidance for the model when nothing else is available. */
  readonly guidance?: string;
}

/** The policies wrapped around a tool's run; declared by the tool, overridable per host. */
export interface ToolPolicy {
  readonly timeout?: DurationInput;
  readonly retry?: RetryPolicy | false;
  readonly cache?: CachePolicy | false;
  /** One limit, or several that all apply (a per-minute and a per-day budget of one upstream key). */
  readonly rateLimit?: RateLimitPolicy | ReadonlyArray<RateLimitPolicy> | false;
  readonly breaker?: BreakerPolicy | false;
  readonly fallback?: FallbackPolicy;
  /** Largest serialised output the model receives; longer data is truncated and says so. */
  readonly maxOutputChars?: number;
  /** Consecutive failures in one session after which `escalate` is set (default 2). */
  readonly escalateAfter?: number;
}
