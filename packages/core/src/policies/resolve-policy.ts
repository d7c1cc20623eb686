import type { ToolAnnotations } from "../define-tool.js";
import { toMillis } from "../duration.js";
import type { BreakerPolicy, RateLimitPolicy, RetryPolicy, ToolPolicy } from "../tool-policy.js";

/** One rate limit with its defaults applied. */
export interface ResolvedRateLimit {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly perPrincipal: boolean;
  readonly onExceeded: "fail" | "delay";
}

/** A tool's policies with every duration in milliseconds and every default applied. */
export interface ResolvedPolicy {
  readonly timeoutMs: number;
  readonly retry:
    | { readonly times: number; readonly baseMs: number; readonly maxElapsedMs: number }
    | undefined;
  readonly cache: { readonly ttlMs: number; readonly capacity: number } | undefined;
  /** Every rate limit that applies, in declaration order (undefined when none). */
  readonly rateLimit: ReadonlyArray<ResolvedRateLimit> | undefined;
  readonly breaker:
    | { readonly key: string; readonly failures: number; readonly openForMs: number }
    | undefined;
  readonly fallback: ToolPolicy["fallback"];
  readonly maxOutputChars: number;
  readonly escalateAfter: number;
}

/** The defaults every tool gets unless it or the host says otherwise. */
export const DEFAULT_POLICY = {
  timeout: "30s",
  retry: { times: 2, base: "200ms" },
  breaker: { failures: 5, openFor: "30s" },
  maxOutputChars: 50_000,
  escalateAfter: 2,
} as const;

/**
 * Merges a tool's declared policy with host overrides (override wins per field) and applies
 * defaults: retries only for idempotent tools, a breaker only for tools that reach outside the host.
 */
export const resolvePolicy = (
  pluginId: string,
  annotations: ToolAnnotations | undefined,
  declared: ToolPolicy | undefined,
  override: ToolPolicy | undefined,
): ResolvedPolicy => {
  const p: ToolPolicy = { ...declared, ...override };
  const idempotent = annotations?.idempotent ?? annotations?.readOnly ?? false;
  const timeoutMs = toMillis(p.timeout ?? DEFAULT_POLICY.timeout);
  const retryDecl: RetryPolicy | false =
    p.retry === undefined ? (idempotent ? DEFAULT_POLICY.retry : false) : p.retry;
  const breakerDecl: BreakerPolicy | false =
    p.breaker === undefined ? (annotations?.openWorld ? DEFAULT_POLICY.breaker : false) : p.breaker;
  return {
    timeoutMs,
    retry:
      retryDecl && idempotent && (retryDecl.times ?? DEFAULT_POLICY.retry.times) > 0
        ? {
            times: retryDecl.times ?? DEFAULT_POLICY.retry.times,
            baseMs: toMillis(retryDecl.base ?? DEFAULT_POLICY.retry.base),
            maxElapsedMs: retryDecl.maxElapsed ? toMillis(retryDecl.maxElapsed) : timeoutMs,
          }
        : undefined,
    cache: p.cache ? { ttlMs: toMillis(p.cache.ttl), capacity: p.cache.capacity ?? 1_000 } : undefined,
    rateLimit: resolveRateLimits(pluginId, p.rateLimit),
    breaker: breakerDecl
      ? {
          key: breakerDecl.key ?? pluginId,
          failures: breakerDecl.failures ?? DEFAULT_POLICY.breaker.failures,
          openForMs: toMillis(breakerDecl.openFor ?? DEFAULT_POLICY.breaker.openFor),
        }
      : undefined,
    fallback: p.fallback,
    maxOutputChars: p.maxOutputChars ?? DEFAULT_POLICY.maxOutputChars,
    escalateAfter: p.escalateAfter ?? DEFAULT_POLICY.escalateAfter,
  };
};

const resolveRateLimits = (
  pluginId: string,
  declared: ToolPolicy["rateLimit"],
): ReadonlyArray<ResolvedRateLimit> | undefined => {
  if (!declared) return undefined;
  const list: ReadonlyArray<RateLimitPolicy> = Array.isArray(declared) ? declared : [declared];
  if (list.length === 0) return undefined;
  const seen = new Set<string>();
  return list.map((r) => {
    // Two limits on one key (per minute and per day) count in two buckets of the store.
    let key = r.key ?? pluginId;
    if (seen.has(key)) key = `${key}:${toMillis(r.window)}ms`;
    seen.add(key);
    return {
      key,
      limit: r.limit,
      windowMs: toMillis(r.window),
      perPrincipal: r.perPrincipal ?? false,
      onExceeded: r.onExceeded ?? "fail",
    };
  });
};
