import type { RateLimitPolicy, ToolPolicy } from "@quiver/core";

/** openFDA's documented request budgets (open.fda.gov/apis/authentication). */
export const OPENFDA_LIMITS = {
  perMinute: 240,
  perDayWithoutKey: 1_000,
  perDayWithKey: 120_000,
} as const;

/**
 * openFDA's budgets as runtime rate limits shared by every FDA tool (one upstream): 240 calls a
 * minute, and 1,000 a day (openFDA's budget without a key). A host with a key raises the daily entry
 * through its `policies` (see the README). The runtime counts calls, and a cache hit is no call.
 */
export const RATE_LIMITS: ReadonlyArray<RateLimitPolicy> = [
  { key: "openfda", limit: OPENFDA_LIMITS.perMinute, window: "1 minute" },
  { key: "openfda-day", limit: OPENFDA_LIMITS.perDayWithoutKey, window: "1 day" },
];

/** The breaker shared by every FDA tool: openFDA is one upstream. */
export const BREAKER_POLICY = { key: "openfda", failures: 5, openFor: "30s" } as const;

/** What to do when openFDA cannot answer. */
export const FALLBACK_GUIDANCE =
  "openFDA could not be reached. Answer from your own knowledge if you can, say that FDA data could not be checked, and do not present approval facts as verified.";

/**
 * The policy every FDA tool runs under (one upstream, one budget, one breaker); a tool adds its own
 * output budget: `policy: { ...OPENFDA_POLICY, maxOutputChars: 20_000 }`.
 */
export const OPENFDA_POLICY = {
  timeout: "30s",
  retry: { times: 2 },
  cache: { ttl: "1h" },
  rateLimit: RATE_LIMITS,
  breaker: BREAKER_POLICY,
  // The last good answer (marked stale, with its age) beats none while openFDA is down.
  fallback: { stale: true, guidance: FALLBACK_GUIDANCE },
} as const satisfies ToolPolicy;
