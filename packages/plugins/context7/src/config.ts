import { type DurationInput, secret, setting, toMillis } from "@quiver/core";
import { z } from "zod";
import type { DocsClient } from "./internal/docs-client.js";

/** A duration ("7d", "12h", 30000) in milliseconds. */
const duration = z.union([z.number().nonnegative(), z.string().min(1)]).transform((value, ctx) => {
  try {
    return toMillis(value as DurationInput);
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a duration (try "7d", "12h", "30m")` });
    return z.NEVER;
  }
});

/**
 * The plugin's settings: HTTP API base URL and key, an injected transport, library-id cache. The
 * default base URL is Context7's HTTP API as documented (the MCP server lets `CONTEXT7_API_URL`
 * override it too).
 */
export const context7ConfigSchema = z.object({
  baseUrl: setting(z.url({ protocol: /^https?$/ }).default("https://context7.com/api"), {
    env: "CONTEXT7_API_URL",
  }).describe("Base URL of Context7's HTTP API (without /v2)."),
  apiKey: secret({ env: "CONTEXT7_API_KEY" })
    .optional()
    .describe("Context7 API key (ctx7sk-…); optional, raises the rate limits."),
  docsClient: z
    .custom<DocsClient>(
      (u) =>
        typeof u === "object" &&
        u !== null &&
        typeof (u as Partial<DocsClient>).searchLibraries === "function" &&
        typeof (u as Partial<DocsClient>).getContext === "function",
      "docsClient must have searchLibraries and getContext methods",
    )
    .optional()
    .describe("A transport to use instead of the HTTP API."),
  libraryCacheTtl: duration.prefault("7d").describe("How long a resolved library id is reused."),
});

/**
 * The plugin's settings after parsing (secrets as Redacted, durations in milliseconds); tools read
 * them as `ctx.config`.
 */
export type Context7Config = z.output<typeof context7ConfigSchema>;
