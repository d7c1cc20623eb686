import { secret, setting } from "@quiver/core";
import { z } from "zod";

/** The plugin's settings: the openFDA base URL (tests point it at an emulator) and an optional key. */
export const fdaConfigSchema = z.object({
  baseUrl: setting(z.url().default("https://api.fda.gov"), { env: "OPENFDA_BASE_URL" }).describe(
    "openFDA base URL.",
  ),
  apiKey: secret({ env: "OPENFDA_API_KEY" })
    .optional()
    .describe("openFDA API key (optional): openFDA then allows 120,000 requests a day instead of 1,000."),
});

/** The parsed settings of the FDA plugin. */
export type FdaConfig = z.output<typeof fdaConfigSchema>;
