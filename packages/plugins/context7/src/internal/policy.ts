import type { ToolPolicy } from "@quiver/core";

/**
 * What the model should do while Context7 cannot answer (unreachable, 5xx after retries, circuit
 * open, rate limited). The runtime itself sets `escalate` after two failures in a row in a session.
 */
export const UNAVAILABLE_GUIDANCE =
  "Context7 documentation could not be fetched, so continue without it: " +
  "(1) answer from what you already know about the library and say which version your knowledge most likely reflects; " +
  "(2) prefer the library's standard, long-documented approach over recent or niche APIs, and flag any API you are not sure still exists; " +
  "(3) point the user to the library's official documentation for version-specific details. " +
  "Try Context7 again at most once in this conversation; if it fails again, stop calling it and tell the user documentation lookup is down.";

/** When the named library is not in Context7. */
export const NOT_FOUND_GUIDANCE =
  "If none of the suggested libraries is the one meant, answer from your own knowledge of it and say Context7 has no documentation for it.";

/**
 * Shared by every Context7 tool: one rate-limit budget and one circuit for the upstream, both keyed
 * by the plugin id (`context7`); two retries, as every idempotent tool gets.
 */
const shared = {
  timeout: "30s",
  retry: { base: "250ms" },
  rateLimit: { limit: 60, window: "1 minute" },
  breaker: { failures: 3, openFor: "1 minute" },
  // The last good answer (marked stale, with its age) beats none while Context7 is down.
  fallback: { stale: true, guidance: UNAVAILABLE_GUIDANCE },
} as const satisfies ToolPolicy;

/** Documentation: cached for hours (it changes when the library is re-indexed). */
export const DOCS_POLICY: ToolPolicy = { ...shared, cache: { ttl: "6h" }, maxOutputChars: 40_000 };

/** Library ids: cached for days (they change rarely). */
export const RESOLVE_POLICY: ToolPolicy = { ...shared, cache: { ttl: "7d" }, maxOutputChars: 20_000 };
