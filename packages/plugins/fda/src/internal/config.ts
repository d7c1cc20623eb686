import { secret } from "@quiver/core";
import type { Redacted } from "effect";
import { z } from "zod";

/** openFDA's documented request budgets (open.fda.gov/apis/authentication). */
export const OPENFDA_LIMITS = {
  perMinute: 240,
  perDayWithoutKey: 1_000,
  perDayWithKey: 120_000,
} as const;

/** The plugin's settings: base URL (tests point it at the emulator), optional key, daily budget. */
export const fdaConfigSchema = z.object({
  baseUrl: z.url().default("https://api.fda.gov").describe("openFDA base URL."),
  apiKey: secret()
    .optional()
    .describe("openFDA API key (optional): raises the daily budget from 1,000 to 120,000 requests."),
  dailyLimit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Requests per day this host may send (default: 1,000 without a key, 120,000 with one)."),
});

/** The parsed settings of the FDA plugin. */
export interface FdaConfig {
  readonly baseUrl: string;
  readonly apiKey?: Redacted.Redacted<string> | undefined;
  readonly dailyLimit?: number | undefined;
}
