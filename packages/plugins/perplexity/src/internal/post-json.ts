import * as Redacted from "effect/Redacted";
import type { z } from "zod";
import type { BackendContext } from "./backend.js";
import { relabel } from "./relabel.js";

/**
 * POSTs JSON to Perplexity with the key as a redacted Bearer header and parses the answer with
 * `schema`; failures come back with Perplexity-specific fixes.
 */
export const postJson = async <T>(
  ctx: BackendContext,
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
): Promise<T> => {
  const key = ctx.config.apiKey;
  try {
    return await ctx.http.json({
      method: "POST",
      url: `${ctx.config.baseUrl}${path}`,
      json: body,
      headers: { authorization: Redacted.make(`Bearer ${Redacted.value(key)}`) },
      secrets: [key],
      apiKeyVar: "PERPLEXITY_API_KEY",
      signal: ctx.signal,
      schema,
    });
  } catch (error) {
    throw relabel(error);
  }
};
