import { fail, type HttpClient } from "@quiver/core";
import { z } from "zod";
import type { FdaConfig } from "../config.js";
import type { Endpoint } from "./query.js";
import { openFdaError, parseFailureDetails, serverFailure, unparsableSearch } from "./server-error.js";

/** Unparsable searches remembered per client, so the same one is never sent again. */
const MAX_UNPARSABLE = 256;

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
  // "path search" → openFDA's details. A parse failure is deterministic: a retry, or the model calling again
  // with the same criteria, gets the same failure without costing a request of the daily budget.
  const unparsable = new Map<string, string>();
  const send = async (
    endpoint: Endpoint,
    params: Readonly<Record<string, string | number | undefined>> & { search: string | undefined },
    signal: AbortSignal,
  ) => {
    const path = `/drug/${endpoint}.json`;
    const key = `${path} ${params.search}`;
    const known = params.search === undefined ? undefined : unparsable.get(key);
    if (known !== undefined) throw unparsableSearch(path, params.search!, known);
    const response = await http.request({
      baseUrl: config.baseUrl,
      url: path,
      route: "/drug/{endpoint}.json",
      // openFDA asks for the key first; a Redacted value is unwrapped on the wire and redacted everywhere else.
      query: { api_key: config.apiKey, ...params },
      signal,
      // 500 is read here: openFDA sends a search Elasticsearch could not parse back as SERVER_ERROR.
      acceptStatus: [404, 500],
      // Named in access-denied suggestions.
      apiKeyVar: "OPENFDA_API_KEY",
    });
    if (response.status === 500) {
      const details = params.search === undefined ? undefined : parseFailureDetails(response.body);
      if (details === undefined) throw serverFailure(path, response.body, response.header("retry-after"));
      if (unparsable.size >= MAX_UNPARSABLE) unparsable.delete(unparsable.keys().next().value!);
      unparsable.set(key, details);
      throw unparsableSearch(path, params.search!, details);
    }
    if (response.status === 404) {
      if (openFdaError(response.body)?.code === "NOT_FOUND") return { response, notFound: true as const };
      throw fail.upstream(`openFDA answered HTTP 404 for ${path} without its NOT_FOUND error body.`, {
        status: 404,
        retryable: false,
        suggestion: "Check the plugin's baseUrl setting: it should point at https://api.fda.gov.",
      });
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
