import type { z } from "zod";
import type { BackendContext } from "./backend.js";
import { relabel } from "./relabel.js";

/**
 * POSTs JSON to Perplexity with the key as its Bearer token and parses the answer with
 * `schema`; failures come back with Perplexity-specific fixes.
 */
export const postJson = async <T>(
  ctx: BackendContext,
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
): Promise<T> => {
  try {
    return await ctx.http.json({
      method: "POST",
      baseUrl: ctx.config.baseUrl,
      url: path,
      json: body,
      bearer: ctx.config.apiKey,
      apiKeyVar: "PERPLEXITY_API_KEY",
      signal: ctx.signal,
      schema,
    });
  } catch (error) {
    throw relabel(error);
  }
};
