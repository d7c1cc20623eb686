import { defineToolWith, type RateLimitPolicy, type ToolPolicy } from "@quiver/core";
import type { FdaConfig } from "../config.js";
import type { OpenFdaClient } from "./openfda-client.js";

/** Defines an FDA tool: its `ctx.config` the plugin's settings, its `ctx.resources` the openFDA client. */
export const defineFdaTool = defineToolWith<FdaConfig, OpenFdaClient>();

/** openFDA's documented request budgets (open.fda.gov/apis/authentication). */
export const OPENFDA_LIMITS = { perMinute: 240, perDayWithoutKey: 1_000, perDayWithKey: 120_000 } as const;

/**
 * openFDA's budgets as runtime rate limits shared by every FDA tool (one upstream): 240 calls a
 * minute, and 1,000 a day (openFDA's budget without a key). A host with a key raises the daily entry
 * through its `policies` (see the README). The runtime counts calls, and a cache hit is no call.
 */
export const RATE_LIMITS: ReadonlyArray<RateLimitPolicy> = [
  { key: "openfda", limit: OPENFDA_LIMITS.perMinute, window: "1 minute" },
  { key: "openfda-day", limit: OPENFDA_LIMITS.perDayWithoutKey, window: "1 day" },
];

/**
 * The policy every FDA tool runs under, besides the runtime's defaults for a read-only tool that
 * reaches outside (a 30 s timeout, two retries, a breaker after 5 failures for 30 s): one upstream,
 * so one budget and one breaker. A tool adds its own output budget:
 * `policy: { ...OPENFDA_POLICY, maxOutputChars: 20_000 }`.
 */
export const OPENFDA_POLICY = {
  cache: { ttl: "1h" },
  rateLimit: RATE_LIMITS,
  breaker: { key: "openfda" },
  // The last good answer (marked stale, with its age) beats none while openFDA is down.
  fallback: {
    stale: true,
    guidance:
      "openFDA could not be reached. Answer from your own knowledge if you can, say that FDA data could not be checked, and do not present approval facts as verified.",
  },
} as const satisfies ToolPolicy;
