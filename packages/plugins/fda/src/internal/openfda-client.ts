import { fail, type HttpClient } from "@quiver/core";
import { z } from "zod";
import type { FdaConfig } from "../config.js";
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

/**
 * The openFDA client the plugin's `setup` opens once per registration: the base URL and key of the
 * registration over the catalog's HTTP client. Tools reach it as `ctx.resources`.
 */
export interface OpenFdaClient {
  /** Runs an openFDA search (`search=`, `limit=`); 404 NOT_FOUND comes back as an empty page. */
  search(
    endpoint: Endpoint,
    search: string | undefined,
    limit: number,
    signal: AbortSignal,
  ): Promise<SearchPage>;
  /** Runs an openFDA count (`count=<field>`); "Nothing to count" comes back as no buckets. */
  count(
    endpoint: Endpoint,
    search: string | undefined,
    field: string,
    limit: number,
    signal: AbortSignal,
  ): Promise<CountPage>;
}

/** Opens the openFDA client for one registration's settings. */
export const createOpenFdaClient = (config: FdaConfig, http: HttpClient): OpenFdaClient => {
  const base = config.baseUrl.replace(/\/+$/, "");
  const send = async (
    endpoint: Endpoint,
    params: Readonly<Record<string, string | number | undefined>>,
    signal: AbortSignal,
  ) => {
    const response = await http.request({
      url: `${base}/drug/${endpoint}.json`,
      // openFDA asks for the key first; a Redacted value is unwrapped on the wire and redacted everywhere else.
      query: { api_key: config.apiKey, ...params },
      signal,
      acceptStatus: [404],
      apiKeyVar: API_KEY_VAR,
      ...(config.apiKey ? { secrets: [config.apiKey] } : {}),
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
  return {
    async search(endpoint, search, limit, signal) {
      const { response, notFound } = await send(endpoint, { search, limit }, signal);
      if (notFound) return { total: 0, results: [], lastUpdated: undefined, notFound: true };
      const body = response.json(searchBody);
      return {
        total: body.meta?.results?.total ?? body.results.length,
        results: body.results,
        lastUpdated: body.meta?.last_updated,
        notFound: false,
      };
    },
    async count(endpoint, search, field, limit, signal) {
      const { response, notFound } = await send(endpoint, { search, count: field, limit }, signal);
      if (notFound) return { buckets: [], lastUpdated: undefined, notFound: true };
      const body = response.json(countBody);
      return {
        buckets: body.results.map((r) => ({ term: String(r.term ?? r.time ?? ""), count: r.count })),
        lastUpdated: body.meta?.last_updated,
        notFound: false,
      };
    },
  };
};
