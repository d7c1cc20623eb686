import type { DailyBudget } from "./daily-budget.js";

/** What the tools of one plugin instance share. */
export interface FdaDeps {
  readonly budget: DailyBudget;
}

/** The openFDA per-minute limit as a runtime rateLimit policy, shared by every FDA tool (one upstream budget). */
export const PER_MINUTE_POLICY = { key: "openfda", limit: 240, window: "1 minute" } as const;

/** The breaker shared by every FDA tool: openFDA is one upstream. */
export const BREAKER_POLICY = { key: "openfda", failures: 5, openFor: "30s" } as const;

/** What to do when openFDA cannot answer. */
export const FALLBACK_GUIDANCE =
  "openFDA could not be reached. Answer from your own knowledge if you can, say that FDA data could not be checked, and do not present approval facts as verified.";
