import { fail, type ToolContext } from "@quiver/core";
import { z } from "zod";
import type { FdaConfig } from "./config.js";
import type { DailyBudget } from "./daily-budget.js";
import type { Endpoint } from "./query.js";

/** The environment variable named in access-denied suggestions. */
export const API_KEY_VAR = "OPENFDA_API_KEY";

const errorBody = z.object({
  error: z.object({ code: z.string().optional(), message: z.string().optional() }).optional(),
});

const searchBody = z.object({
  meta: z
    .object({
      last_updated: z.string().optional(),
      results: z
        .object({ total: z.number(), skip: z.number().optional(), limit: z.number().optional() })
        .optional(),
    })
    .optional(),
  results: z.array(z.record(z.string(), z.unknown())),
});

const countBody = z.object({
  meta: z.object({ last_updated: z.string().optional() }).optional(),
  results: z.array(
    z.object({
      term: z.union([z.string(), z.number()]).optional(),
      time: z.string().optional(),
      count: z.number(),
    }),
  ),
});

/** One page of search results. `notFound` is openFDA's 404 NOT_FOUND: zero matches, not an error. */
export interface SearchPage {
  readonly total: number;
  readonly results: ReadonlyArray<Record<string, unknown>>;
  readonly lastUpdated: string | undefined;
  readonly notFound: boolean;
}

/** Count buckets (`count=`). `notFound` is openFDA's "Nothing to count". */
export interface CountPage {
  readonly buckets: ReadonlyArray<{ readonly term: string; readonly count: number }>;
  readonly lastUpdated: string | undefined;
  readonly notFound: boolean;
}

/** What the client needs from a tool call. */
export type ClientContext = Pick<ToolContext<FdaConfig>, "config" | "http" | "signal">;

const send = async (
  ctx: ClientContext,
  budget: DailyBudget,
  endpoint: Endpoint,
  params: Readonly<Record<string, string | number | undefined>>,
) => {
  await budget.take(ctx.config);
  const response = await ctx.http.request({
    url: `${ctx.config.baseUrl.replace(/\/+$/, "")}/drug/${endpoint}.json`,
    // openFDA asks for the key first; a Redacted value is unwrapped on the wire and redacted everywhere else.
    query: { api_key: ctx.config.apiKey, ...params },
    signal: ctx.signal,
    acceptStatus: [404],
    apiKeyVar: API_KEY_VAR,
    ...(ctx.config.apiKey ? { secrets: [ctx.config.apiKey] } : {}),
  });
  if (response.status === 404) {
    let code: string | undefined;
    try {
      code = errorBody.parse(JSON.parse(response.body)).error?.code;
    } catch {
      code = undefined;
    }
    if (code === "NOT_FOUND") return { response, notFound: true as const };
    throw fail.upstream(
      `openFDA answered HTTP 404 for /drug/${endpoint}.json without its NOT_FOUND error body.`,
      {
        status: 404,
        retryable: false,
        suggestion: "Check the plugin's baseUrl setting: it should point at https://api.fda.gov.",
      },
    );
  }
  return { response, notFound: false as const };
};

/** Runs an openFDA search (`search=`, `limit=`); 404 NOT_FOUND comes back as an empty page. */
export const searchOpenFda = async (
  ctx: ClientContext,
  budget: DailyBudget,
  endpoint: Endpoint,
  search: string | undefined,
  limit: number,
): Promise<SearchPage> => {
  const { response, notFound } = await send(ctx, budget, endpoint, { search, limit });
  if (notFound) return { total: 0, results: [], lastUpdated: undefined, notFound: true };
  const body = response.json(searchBody);
  return {
    total: body.meta?.results?.total ?? body.results.length,
    results: body.results,
    lastUpdated: body.meta?.last_updated,
    notFound: false,
  };
};

/** Runs an openFDA count (`count=<field>`); "Nothing to count" comes back as no buckets. */
export const countOpenFda = async (
  ctx: ClientContext,
  budget: DailyBudget,
  endpoint: Endpoint,
  search: string | undefined,
  field: string,
  limit: number,
): Promise<CountPage> => {
  const { response, notFound } = await send(ctx, budget, endpoint, { search, count: field, limit });
  if (notFound) return { buckets: [], lastUpdated: undefined, notFound: true };
  const body = response.json(countBody);
  return {
    buckets: body.results.map((r) => ({ term: String(r.term ?? r.time ?? ""), count: r.count })),
    lastUpdated: body.meta?.last_updated,
    notFound: false,
  };
};
