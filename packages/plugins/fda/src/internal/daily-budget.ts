import { createHash } from "node:crypto";
import { fail } from "@quiver/core";
import { Duration, Effect, Exit, Redacted } from "effect";
import { RateLimiter } from "effect/persistence";
import { type FdaConfig, OPENFDA_LIMITS } from "./config.js";

const DAY_MS = 86_400_000;

/** openFDA's per-day request budget, counted per upstream request (retries and follow-ups included). */
export interface DailyBudget {
  /** Takes one request from today's budget, or throws `rate_limited` with the wait. */
  take(config: FdaConfig): Promise<void>;
}

/** The daily limit that applies: the configured one, else openFDA's documented one for key/no key. */
export const dailyLimitFor = (config: FdaConfig): number =>
  config.dailyLimit ?? (config.apiKey ? OPENFDA_LIMITS.perDayWithKey : OPENFDA_LIMITS.perDayWithoutKey);

/**
 * A daily budget on effect/persistence's RateLimiter (fixed window, in memory), keyed by the API key's
 * hash (openFDA counts per key) or "no-key" (openFDA counts per IP). The per-minute limit is the
 * tools' declared `rateLimit` policy, enforced by the runtime.
 */
export const createDailyBudget = (): DailyBudget => {
  const limiter = Effect.runSync(RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory)));
  return {
    async take(config) {
      const limit = dailyLimitFor(config);
      const key = config.apiKey
        ? `openfda-day:key:${createHash("sha256").update(Redacted.value(config.apiKey)).digest("hex").slice(0, 16)}`
        : "openfda-day:no-key";
      const exit = await Effect.runPromiseExit(
        limiter.consume({ key, limit, window: DAY_MS, algorithm: "fixed-window", onExceeded: "fail" }),
      );
      if (Exit.isSuccess(exit)) return;
      const error = exit.cause.reasons.find((r) => r._tag === "Fail")?.error;
      const retryAfterMs =
        error?.reason._tag === "RateLimitExceeded" ? Duration.toMillis(error.reason.retryAfter) : DAY_MS;
      const hours = Math.ceil(retryAfterMs / 3_600_000);
      throw fail.rateLimited(
        `openFDA's daily budget of ${limit.toLocaleString("en-US")} requests${config.apiKey ? "" : " without an API key"} is spent; it resets in about ${hours} h.`,
        {
          retryAfterMs,
          suggestion: config.apiKey
            ? "Wait for the budget to reset, or answer from the results you already have."
            : "Set OPENFDA_API_KEY (free at open.fda.gov) to raise the budget to 120,000 requests a day.",
        },
      );
    },
  };
};
